#!/usr/bin/env python3
"""Generates the instruction lists of `mulx.rs` (run: python3 generate.py > kernels.rs).

Everything is Intel syntax for Rust's `asm!`; 13 allocatable registers (rbx/rbp are reserved by
LLVM). The kernels are written for the **latency** of a dependent chain of operations:

* `a` arrives in registers and the result leaves in registers (no store-to-load round trip per
  call). Product row j uses `rdx = a_j`, so a_j's register is free once its row starts; `b` is
  read through a pointer (rsi), and `b0` also arrives in a register (the first product `a0·b0`
  heads the critical path). In the generic `mul`, a2 and a3 arrive in xmm1/xmm2 (read when
  their rows start) to leave two general registers for the reduction factors.
* The modulus, `-p^-1 mod 2^64` (`inv`) and the high word of `-p^-1 mod 2^128` (`n1`) are
  `const` operands loaded into rdx as immediates (no pointer, off the critical path).
* The critical path is the chain of Montgomery factors: m_i = u_i·inv needs position i after
  round i-1, i.e. IMUL + MULX + two additions per round. The generic kernels compute the
  factors in pairs from the 128-bit inverse (Montgomery's quotient is unique mod 2^128, so the
  factors, and every result, are the same as with four sequential rounds):
      m_i = lo(u_i·n0),  m_{i+1} = hi(u_i·n0) + lo(u_i·n1) + lo(u_{i+1}·n0)  (mod 2^64),
  which halves the serial chain.
* Separated operand scanning (Koç, Acar, Kaliski 1996, SOS): the value is a sum of registers by
  position (low words shared by product and reduction, product words P4..P7, round carry words
  H4..H7); each chain ends in a fresh register, so nothing overflows (four words plus a
  64×256-bit product stay below 2^320). The rounds are interleaved into the product rows in
  program order (a round only needs the rows up to its position) because the oldest
  instructions win the multiplier ports.
* The result P + H (< 2p) is reduced once, r − p selected by CMOV: no data-dependent branch or
  memory index anywhere.
"""

A = ["r8", "r9", "r10", "r11"]       # input a (rdx = a_j during row j)
B0 = "rcx"                           # b0 (also at [rsi])
BP = "rsi"                           # b pointer (a pointer in the squaring kernels)
LO, HI = "rax", "rcx"                # product halves (HI reuses b0's register after row 0)
# squaring product words: t5..t7 reuse a0..a2's registers
T = ["rdi", "r12", "r13", "r14", "r15", "r8", "r9", "r10"]


def q(base, i):
    return f"qword ptr [{base} + {8 * i}]" if i else f"qword ptr [{base}]"


def square_product():
    """t0..t7 = a^2 with a in registers: a0^2 first (head of the critical path), the six
    off-diagonal products once, then doubled (ADCX) while the other squares are added (ADOX);
    the squares a1^2..a3^2 reload a_i from [rsi]."""
    t = T
    a = A
    # registers: t0=rdi t1=r12 t2=r13 t3=r14 t4=r15 t5=r8 t6=r9 t7=r10, d1 (hi of a0^2) = rcx
    # until the doubling pass, then rcx is HI again. a pointer in rsi.
    d1 = "rcx"
    out = [
        f"mov rdx, {a[0]}",
        f"mulx {d1}, {t[0]}, rdx",              # a0^2
        f"mulx {t[2]}, {t[1]}, {a[1]}",         # a0a1
        f"mulx {t[3]}, {LO}, {a[2]}",           # a0a2
        f"add {t[2]}, {LO}",
        f"mulx {t[4]}, {LO}, {a[3]}",           # a0a3
        f"adc {t[3]}, {LO}",
        f"adc {t[4]}, 0",
        f"mov rdx, {a[1]}",                     # a1's register is free from here: t6
        f"mulx {t[6]}, {LO}, {a[2]}",           # a1a2
        f"add {t[3]}, {LO}",
        f"adc {t[4]}, {t[6]}",
        f"mulx {t[5]}, {LO}, {a[3]}",           # a1a3 (t5 = r8 = a0's register, free)
        f"adc {t[5]}, 0",
        f"add {t[4]}, {LO}",
        f"adc {t[5]}, 0",
        f"mov rdx, {a[2]}",
        f"mulx {t[6]}, {LO}, {a[3]}",           # a2a3 (t6 = r9)
        f"add {t[5]}, {LO}",
        f"adc {t[6]}, 0",
        # double (ADCX chain) and add the squares (ADOX chain); t7 = r10 (a2's register)
        f"xor {t[7]:s}, {t[7]}",
        f"adcx {t[1]}, {t[1]}",
        f"adox {t[1]}, {d1}",
        f"mov rdx, {q('rsi', 1)}",
        f"mulx {HI}, {LO}, rdx",
        f"adcx {t[2]}, {t[2]}",
        f"adox {t[2]}, {LO}",
        f"adcx {t[3]}, {t[3]}",
        f"adox {t[3]}, {HI}",
        f"mov rdx, {q('rsi', 2)}",
        f"mulx {HI}, {LO}, rdx",
        f"adcx {t[4]}, {t[4]}",
        f"adox {t[4]}, {LO}",
        f"adcx {t[5]}, {t[5]}",
        f"adox {t[5]}, {HI}",
        f"mov rdx, {a[3]}",
        f"mulx {HI}, {LO}, rdx",
        f"adcx {t[6]}, {t[6]}",
        f"adox {t[6]}, {LO}",
        f"adcx {t[7]}, {t[7]}",
        f"adox {t[7]}, {HI}",
    ]
    return out


class Regs:
    """A tiny register allocator for the interleaved kernels."""

    def __init__(self, free):
        self.free = list(free)

    def get(self):
        return self.free.pop(0)

    def put(self, r):
        assert r not in self.free
        self.free.append(r)


def mul_interleaved(sm2, a_regs=None, square=False):
    """a·b·2^-256 mod p with the reduction rounds interleaved into the product rows in program
    order: row 0, row 1, round 0, row 2, round 1, row 3, round 2, round 3. Round i needs
    position i complete (rows 0..i and rounds < i). The value is kept as a sum of registers by
    position: low registers R[0..3] shared by product and reduction, product words P[4..7],
    round carries H[4..7]; every chain ends in a fresh register, so no register overflows (a
    4-word value plus a 64x256-bit product is below 2^320). Older instructions win the
    multiplier ports, so the rounds (the critical path) are placed as early as possible."""
    a = list(a_regs or A)
    regs = Regs(["rdi", "r12", "r13", "r14", "r15"] + [r for r in A if r not in a])
    R, P, H = {}, {}, {}
    st = {"hi": None}
    out = []

    def word(p):  # where product row additions for position p go
        return R[p] if p <= 3 else P[p]

    def uword(p):  # where reduction additions for position p go
        return R[p] if p <= 3 else H[p]

    def row(j):
        nonlocal out
        if a[j].startswith("xmm"):
            out.append(f"movq rdx, {a[j]}")
        else:
            out.append(f"mov rdx, {a[j]}")
            regs.put(a[j])
        if j == 0:
            for p in range(5):
                R[p] = regs.get() if p < 4 else None
            P[4] = regs.get()
            out += [f"mulx {R[1]}, {R[0]}, {B0}",
                    f"mulx {R[2]}, {LO}, {q(BP, 1)}", f"add {R[1]}, {LO}",
                    f"mulx {R[3]}, {LO}, {q(BP, 2)}", f"adc {R[2]}, {LO}",
                    f"mulx {P[4]}, {LO}, {q(BP, 3)}", f"adc {R[3]}, {LO}",
                    f"adc {P[4]}, 0"]
            st["hi"] = B0  # b0's register is free from here
            return
        P[j + 4] = regs.get()
        hi = st["hi"]
        out.append(f"xor {P[j + 4]:s}, {P[j + 4]}")
        for k in range(4):
            out += [f"mulx {hi}, {LO}, {q(BP, k)}",
                    f"adox {word(j + k)}, {LO}",
                    f"adcx {word(j + k + 1)}, {hi}"]
        out += ["mov edx, 0", f"adox {P[j + 4]}, rdx"]

    def rnd_generic(i):
        nonlocal out
        m = regs.get()
        hi = st["hi"]
        u = [uword(i + k) for k in range(4)]
        out += ["mov rdx, {inv}", f"mov {m}, {u[0]}", f"imul {m}, rdx", "xor eax, eax"]
        for k in range(4):
            out += [f"mov rdx, {{p{k}}}", f"mulx {hi}, {LO}, {m}", f"adox {u[k]}, {LO}"]
            if k < 3:
                out += [f"adcx {u[k + 1]}, {hi}"]
        out += [f"adcx {hi}, {u[0]}", f"adox {hi}, {u[0]}"]  # u[0] is zero now
        H[i + 4] = hi
        st["hi"] = u[0]
        regs.put(m)

    def rnd_sm2(i):
        # m = u0; (u + m·p)/2^64 = (u >> 64) + m·(2^192 + 1) − m·(2^160 + 2^32)
        nonlocal out
        hi = st["hi"]
        u = [uword(i + k) for k in range(4)]
        m = u[0]
        out += [f"mov {LO}, {m}", f"shl {LO}, 32", f"mov {hi}, {m}", f"shr {hi}, 32",
                f"add {u[1]}, {m}", f"adc {u[2]}, 0", f"adc {u[3]}, 0", f"adc {m}, 0",
                f"sub {u[1]}, {LO}", f"sbb {u[2]}, {hi}", f"sbb {u[3]}, {LO}", f"sbb {m}, {hi}"]
        H[i + 4] = m

    def mpair(i):
        # (m_i, m_{i+1}) = (u_i + u_{i+1}·2^64)·(−p^−1 mod 2^128) mod 2^128 from the positions
        # as they are before round i (Montgomery's quotient is unique mod 2^128, so these are
        # the same factors as two sequential rounds): m_i = lo(u_i·n0),
        # m_{i+1} = hi(u_i·n0) + lo(u_i·n1) + lo(u_{i+1}·n0).
        nonlocal out
        mi, mj = regs.get(), regs.get()
        ui, uj = uword(i), uword(i + 1)
        out += ["mov rdx, {inv}", f"mulx {mj}, {mi}, {ui}", f"imul rdx, {uj}", f"add {mj}, rdx",
                "mov rdx, {n1}", f"imul rdx, {ui}", f"add {mj}, rdx"]
        return mi, mj

    def rnd_with(i, m):
        nonlocal out
        hi = st["hi"]
        u = [uword(i + k) for k in range(4)]
        out += ["xor eax, eax"]
        for k in range(4):
            out += [f"mov rdx, {{p{k}}}", f"mulx {hi}, {LO}, {m}", f"adox {u[k]}, {LO}"]
            if k < 3:
                out += [f"adcx {u[k + 1]}, {hi}"]
        out += [f"adcx {hi}, {u[0]}", f"adox {hi}, {u[0]}"]  # u[0] is zero now
        H[i + 4] = hi
        st["hi"] = u[0]
        regs.put(m)

    if square:
        # the doubling pass needs the whole off-diagonal sum first: product, then the rounds
        out += square_product()
        for p in range(4):
            R[p] = T[p]
            P[p + 4] = T[p + 4]
        regs.free = ["rsi", "r11"]
        st["hi"] = HI
        if sm2:
            for i in range(4):
                rnd_sm2(i)
        else:
            m0, m1 = mpair(0)
            rnd_with(0, m0)
            rnd_with(1, m1)
            m2, m3 = mpair(2)
            rnd_with(2, m2)
            rnd_with(3, m3)
    elif sm2:
        rnd = rnd_sm2
        row(0)
        row(1)
        rnd(0)
        row(2)
        rnd(1)
        row(3)
        regs.put(BP)
        rnd(2)
        rnd(3)
    else:
        row(0)
        row(1)
        m0, m1 = mpair(0)
        row(2)
        rnd_with(0, m0)
        row(3)
        regs.put(BP)
        rnd_with(1, m1)
        m2, m3 = mpair(2)
        rnd_with(2, m2)
        rnd_with(3, m3)
    # r = P + H (< 2p, carry in rdx), then r − p kept unless it borrows.
    t = [P[4 + k] for k in range(4)]
    h = [H[4 + k] for k in range(4)]
    out += [f"add {t[0]}, {h[0]}", f"adc {t[1]}, {h[1]}", f"adc {t[2]}, {h[2]}",
            f"adc {t[3]}, {h[3]}", "mov edx, 0", "adc edx, 0"]
    out += [f"mov {h[k]}, {t[k]}" for k in range(4)]
    if sm2:  # SM2 p limbs: -1, 0xFFFFFFFF00000000, -1, 0xFFFFFFFEFFFFFFFF
        x, y = LO, st["hi"]
        out += [f"mov {x}, 0xFFFFFFFF00000000", f"mov {y}, 0xFFFFFFFEFFFFFFFF",
                f"sub {h[0]}, -1", f"sbb {h[1]}, {x}", f"sbb {h[2]}, -1", f"sbb {h[3]}, {y}"]
    else:
        x, y = LO, st["hi"]
        z = regs.get()
        out += [f"mov {x}, {{p0}}", f"mov {y}, {{p1}}", f"mov {z}, {{p2}}",
                f"sub {h[0]}, {x}", f"mov {x}, {{p3}}",
                f"sbb {h[1]}, {y}", f"sbb {h[2]}, {z}", f"sbb {h[3]}, {x}"]
    out += ["sbb rdx, 0"]  # CF = 1 iff r < p
    out += [f"cmovnc {t[k]}, {h[k]}" for k in range(4)]
    return out, t


def emit(name, lines):
    print(f"// {name}: {len(lines)} instructions")
    print(f"macro_rules! {name} {{ () => {{ concat!(")
    for l in lines:
        print(f'    "{l}\\n",')
    print(") }; }")
    print()


def main():
    print("// @generated by src/backend/x86_64/generate.py; do not edit by hand.")
    print()
    # a2, a3 arrive in xmm1/xmm2 (read when rows 2 and 3 start): two more registers for the
    # reduction factors.
    lines, outs = mul_interleaved(False, ["r8", "r9", "xmm1", "xmm2"])
    print(f"// MUL_GENERIC outputs: {outs}")
    emit("MUL_GENERIC", lines)
    lines, outs = mul_interleaved(False, square=True)
    assert outs == ["r15", "r8", "r9", "r10"], outs
    emit("SQR_GENERIC", lines)
    lines, outs = mul_interleaved(True)
    assert outs == ["r15", "r8", "r9", "r10"], outs
    emit("MUL_SM2", lines)
    lines, outs = mul_interleaved(True, square=True)
    assert outs == ["r15", "r8", "r9", "r10"], outs
    emit("SQR_SM2", lines)


if __name__ == "__main__":
    main()
