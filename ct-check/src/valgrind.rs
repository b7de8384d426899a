//! Valgrind client requests (memcheck), emitted directly with inline assembly so the check needs
//! no C toolchain, header or extra package: only `valgrind` itself at run time.
//!
//! The request protocol is the one `valgrind.h` documents (`VALGRIND_DO_CLIENT_REQUEST_EXPR`,
//! amd64): a "special instruction preamble" of four `rol` of `rdi` by 3, 13, 61 and 51 bits
//! (128 in total, so natively a no-op), then `xchg rbx, rbx`; `rax` points at six words
//! `[request, arg1..arg5]` and the result comes back in `rdx`. Running natively the sequence
//! changes nothing and `rdx` keeps the default, so every function here is harmless outside
//! valgrind. Other architectures get no-op stubs (the CT check runs on x86_64).
//!
//! Memcheck's view: bytes marked *undefined* are tracked bit-precisely through every
//! computation; a conditional branch, a conditional move that memcheck cannot prove harmless,
//! or a memory address that depends on them is reported as an error. That is exactly the
//! constant-time discipline (BoringSSL's `constant_time_secret`/`declassify`, Adam Langley's
//! ctgrind), so [`MARKER`] marks secrets and values that the algorithm publishes.

// memcheck.h: VG_USERREQ_TOOL_BASE('M','C') = ('M' << 24) | ('C' << 16).
const MC_BASE: usize = 0x4D43_0000;
const MAKE_MEM_UNDEFINED: usize = MC_BASE + 1;
const MAKE_MEM_DEFINED: usize = MC_BASE + 2;
// valgrind.h core requests.
const RUNNING_ON_VALGRIND: usize = 0x1001;
const COUNT_ERRORS: usize = 0x1201;
const PRINTF_VALIST_BY_REF: usize = 0x1403;

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
fn client_request(default: usize, request: usize, a1: usize, a2: usize) -> usize {
    let args: [usize; 6] = [request, a1, a2, 0, 0, 0];
    let result: usize;
    // SAFETY: the four rotations of rdi add up to 128 bits, so rdi ends unchanged (it is also
    // declared clobbered), `xchg rbx, rbx` swaps rbx with itself, and the flags the rotations
    // change are clobbered by default. The block only reads the six-word array behind rax,
    // which lives on this frame for the whole block. Under valgrind the sequence is replaced
    // by the client request, which reads the array and the memory ranges it names (live
    // values borrowed by the callers) and writes only valgrind's shadow state and rdx.
    unsafe {
        core::arch::asm!(
            "rol rdi, 3",
            "rol rdi, 13",
            "rol rdi, 61",
            "rol rdi, 51",
            "xchg rbx, rbx",
            in("rax") args.as_ptr(),
            inout("rdx") default => result,
            inout("rdi") 0usize => _,
        );
    }
    result
}

#[cfg(not(target_arch = "x86_64"))]
fn client_request(default: usize, _request: usize, _a1: usize, _a2: usize) -> usize {
    default
}

/// Whether the process runs under valgrind.
pub fn running_on_valgrind() -> bool {
    client_request(0, RUNNING_ON_VALGRIND, 0, 0) != 0
}

/// Memcheck's marks for the catalogue's `classify`/`declassify` (installed by `main`): secret
/// bytes become *undefined*, so every branch or address computed from them afterwards is
/// reported; published bytes become *defined* again.
pub const MARKER: sm_catalogue::marks::Marker = sm_catalogue::marks::Marker {
    classify: |addr, len| {
        client_request(0, MAKE_MEM_UNDEFINED, addr, len);
    },
    declassify: |addr, len| {
        client_request(0, MAKE_MEM_DEFINED, addr, len);
    },
};

/// Number of errors valgrind has reported so far (0 natively).
pub fn error_count() -> usize {
    client_request(0, COUNT_ERRORS, 0, 0)
}

/// Writes `msg` into valgrind's log (a `<clientmsg>` in XML mode), for attributing errors to
/// the operation that was running. `%` is replaced: the message must hold no format directive,
/// since no arguments are passed.
pub fn log(msg: &str) {
    let mut text: Vec<u8> = msg
        .bytes()
        .map(|b| if b == b'%' { b'_' } else { b })
        .collect();
    text.push(0);
    // An amd64 `va_list` (two u32 offsets, two pointers); never read without directives.
    let va_list = [0usize; 3];
    client_request(
        0,
        PRINTF_VALIST_BY_REF,
        text.as_ptr() as usize,
        va_list.as_ptr() as usize,
    );
    core::hint::black_box(&text);
}
