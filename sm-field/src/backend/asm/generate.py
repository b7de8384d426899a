#!/usr/bin/env python3
"""Generates the instruction lists of `asm.rs` (run: python3 generate.py > kernels.rs).

Everything is Intel syntax for Rust's `asm!`. Register plan (13 allocatable registers; rbx/rbp
are reserved by LLVM):
  rsi = a pointer, rdi = b pointer (then modulus pointer), rdx = MULX multiplier,
  rax = low product word, rcx = high product word, r8..r15 = 512-bit product t0..t7.
The modulus pointer (P[0..4], INV at +32) travels in xmm0 during the product phase of `mul`.
"""

T = ["r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15"]
LO, HI = "rax", "rcx"


def q(base, i):
    return f"qword ptr [{base} + {8 * i}]" if i else f"qword ptr [{base}]"


def product(a="rsi", b="rdi"):
    """t0..t7 = a * b (schoolbook rows, row i on two carry chains: ADOX low, ADCX high)."""
    t = T
    out = [f"mov rdx, {q(b, 0)}",
           f"mulx {t[1]}, {t[0]}, {q(a, 0)}",
           f"mulx {t[2]}, {LO}, {q(a, 1)}",
           f"add {t[1]}, {LO}",
           f"mulx {t[3]}, {LO}, {q(a, 2)}",
           f"adc {t[2]}, {LO}",
           f"mulx {t[4]}, {LO}, {q(a, 3)}",
           f"adc {t[3]}, {LO}",
           f"adc {t[4]}, 0"]
    for i in range(1, 4):
        out += [f"mov rdx, {q(b, i)}",
                f"xor {t[i + 4]:s}, {t[i + 4]}"]  # zero the new top word, clear CF and OF
        for j in range(4):
            out += [f"mulx {HI}, {LO}, {q(a, j)}",
                    f"adox {t[i + j]}, {LO}",
                    f"adcx {t[i + j + 1]}, {HI}"]
        out += ["mov edx, 0", f"adox {t[i + 4]}, rdx"]
    return out


def square_product(a="rsi"):
    """t0..t7 = a^2: off-diagonal products once, doubled, plus the diagonal."""
    t = T
    return [
        f"mov rdx, {q(a, 0)}",
        f"mulx {t[2]}, {t[1]}, {q(a, 1)}",      # a0a1
        f"mulx {t[3]}, {LO}, {q(a, 2)}",        # a0a2
        f"add {t[2]}, {LO}",
        f"mulx {t[4]}, {LO}, {q(a, 3)}",        # a0a3
        f"adc {t[3]}, {LO}",
        f"adc {t[4]}, 0",
        f"mov rdx, {q(a, 1)}",
        f"xor {t[5]}, {t[5]}",
        f"mulx {HI}, {LO}, {q(a, 2)}",          # a1a2
        f"adox {t[3]}, {LO}",
        f"adcx {t[4]}, {HI}",
        f"mulx {HI}, {LO}, {q(a, 3)}",          # a1a3
        f"adox {t[4]}, {LO}",
        f"adcx {t[5]}, {HI}",
        f"mov {t[6]}, 0",
        f"adox {t[5]}, {t[6]}",
        f"mov rdx, {q(a, 2)}",
        f"mulx {t[6]}, {LO}, {q(a, 3)}",        # a2a3
        f"add {t[5]}, {LO}",
        f"adc {t[6]}, 0",
        # double (ADCX chain) and add the diagonal (ADOX chain)
        f"xor {t[7]}, {t[7]}",
        f"mov rdx, {q(a, 0)}",
        f"mulx {HI}, {t[0]}, rdx",
        f"adcx {t[1]}, {t[1]}",
        f"adox {t[1]}, {HI}",
        f"mov rdx, {q(a, 1)}",
        f"mulx {HI}, {LO}, rdx",
        f"adcx {t[2]}, {t[2]}",
        f"adox {t[2]}, {LO}",
        f"adcx {t[3]}, {t[3]}",
        f"adox {t[3]}, {HI}",
        f"mov rdx, {q(a, 2)}",
        f"mulx {HI}, {LO}, rdx",
        f"adcx {t[4]}, {t[4]}",
        f"adox {t[4]}, {LO}",
        f"adcx {t[5]}, {t[5]}",
        f"adox {t[5]}, {HI}",
        f"mov rdx, {q(a, 3)}",
        f"mulx {HI}, {LO}, rdx",
        f"adcx {t[6]}, {t[6]}",
        f"adox {t[6]}, {LO}",
        f"adcx {t[7]}, {t[7]}",
        f"adox {t[7]}, {HI}",
    ]


def redc_generic(pp, h):
    """Four Montgomery rounds on t0..t3 (m = u0*INV, u = (u + m*p)/2^64), result in rotated
    registers; `h` is a spare register. Returns (lines, result registers)."""
    u = T[:4]
    out = []
    for _ in range(4):
        out += [f"mov rdx, {u[0]}",
                f"imul rdx, {q(pp, 4)}",
                f"xor {LO}, {LO}"]
        out += [f"mulx {h}, {LO}, {q(pp, 0)}", f"adox {u[0]}, {LO}", f"adcx {u[1]}, {h}",
                f"mulx {h}, {LO}, {q(pp, 1)}", f"adox {u[1]}, {LO}", f"adcx {u[2]}, {h}",
                f"mulx {h}, {LO}, {q(pp, 2)}", f"adox {u[2]}, {LO}", f"adcx {u[3]}, {h}",
                f"mulx {h}, {LO}, {q(pp, 3)}", f"adox {u[3]}, {LO}",
                f"adcx {h}, {u[0]}",    # u0 is zero now
                f"adox {h}, {u[0]}"]
        u, h = u[1:] + [h], u[0]
    return out, u, h


def redc_sm2():
    """Four Montgomery rounds for SM2's p without multiplications: with m = u0 (INV = 1),
    (u + m*p)/2^64 = (u >> 64) + m*(2^192 + 1) - m*(2^160 + 2^32); the result is below 2^256 so
    the computation is exact modulo 2^256."""
    u = T[:4]
    out = []
    for _ in range(4):
        m = u[0]
        out += [f"mov {LO}, {m}", f"shl {LO}, 32", f"mov {HI}, {m}", f"shr {HI}, 32",
                f"add {u[1]}, {m}", f"adc {u[2]}, 0", f"adc {u[3]}, 0", f"adc {m}, 0",
                f"sub {u[1]}, {LO}", f"sbb {u[2]}, {HI}", f"sbb {u[3]}, {LO}", f"sbb {m}, {HI}"]
        u = u[1:] + [m]
    return out, u


def add_high_and_reduce(u, s_regs, pp=None):
    """r = u + t4..t7 (< 2p), then r - p kept unless it borrows (CMOV). Result in t4..t7."""
    t = T
    out = [f"add {t[4]}, {u[0]}", f"adc {t[5]}, {u[1]}", f"adc {t[6]}, {u[2]}",
           f"adc {t[7]}, {u[3]}", "mov edx, 0", "adc edx, 0"]
    s = s_regs
    out += [f"mov {s[i]}, {t[4 + i]}" for i in range(4)]
    if pp is None:  # SM2 p limbs: -1, 0xFFFFFFFF00000000, -1, 0xFFFFFFFEFFFFFFFF
        out += [f"mov {LO}, 0xFFFFFFFF00000000", f"mov {HI}, 0xFFFFFFFEFFFFFFFF",
                f"sub {s[0]}, -1", f"sbb {s[1]}, {LO}", f"sbb {s[2]}, -1", f"sbb {s[3]}, {HI}"]
    else:
        out += [f"sub {s[0]}, {q(pp, 0)}", f"sbb {s[1]}, {q(pp, 1)}",
                f"sbb {s[2]}, {q(pp, 2)}", f"sbb {s[3]}, {q(pp, 3)}"]
    out += ["sbb rdx, 0"]  # CF = 1 iff r < p
    out += [f"cmovnc {t[4 + i]}, {s[i]}" for i in range(4)]
    return out


def emit(name, lines):
    print(f"// {name}: {len(lines)} instructions")
    print(f"macro_rules! {name} {{ () => {{ concat!(")
    for l in lines:
        print(f'    "{l}\\n",')
    print(") }; }")
    print()


def main():
    print("// @generated by src/backend/asm/generate.py; do not edit by hand.")
    print()
    # Generic mul: the modulus pointer waits in xmm0 during the product, then replaces b.
    red, u, _ = redc_generic("rdi", HI)
    emit("MUL_GENERIC", product() + ["movq rdi, xmm0"] + red + add_high_and_reduce(u, u, "rdi"))
    # Generic square: rdi = modulus pointer from the start.
    emit("SQR_GENERIC", square_product() + red + add_high_and_reduce(u, u, "rdi"))
    # SM2 p: reduction by shifts, constants as immediates.
    red, u = redc_sm2()
    emit("MUL_SM2", product() + red + add_high_and_reduce(u, u))
    emit("SQR_SM2", square_product() + red + add_high_and_reduce(u, u))


if __name__ == "__main__":
    main()
