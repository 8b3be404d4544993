"""The DeSmuME cycle model and the `--classes` labels share one decoder
(`insn_count.decode`): known encodings get the cycles and kinds the
model's rules give them."""
import unittest

import _path  # noqa: F401
import insn_count

ALWAYS = 0  # CPSR with no flags set: condition EQ fails, AL runs


def regs(values):
    return lambda r: values.get(r, 0)


class DecoderTest(unittest.TestCase):
    def check(self, word, cycles, kind, reg=None):
        self.assertEqual(insn_count.desmume_cycles(word, ALWAYS, reg or regs({})), cycles, hex(word))
        self.assertEqual(insn_count.instruction_class(word), kind, hex(word))

    def test_loads_and_stores(self):
        self.check(0xE59D0004, 3, "load (stack)")  # ldr r0, [sp, #4]
        self.check(0xE5810000, 2, "store")  # str r0, [r1]
        self.check(0xE1D100B2, 3, "load")  # ldrh r0, [r1, #2]
        self.check(0xE1CD00F8, 2, "store (stack)")  # strd r0, r1, [sp, #8]
        self.check(0xE890000E, 3, "load multiple")  # ldm r0, {r1, r2, r3}
        self.check(0xE8800002, 1, "store multiple")  # stm r0, {r1}

    def test_branches(self):
        self.check(0xEA000000, 3, "branch")  # b
        self.check(0xE12FFF1E, 2, "branch")  # bx lr

    def test_multiplies(self):
        # smull r0, r1, r2, r3 with r3 = 0x1234 (top bit 12: 12 >> 3 = 1).
        self.check(0xE0C10392, 4, "long multiply (smull, smlal, umull)", regs({3: 0x1234}))
        # smlal r0, r1, r2, r3 with r3 = -1 (one's complement 0: 0).
        self.check(0xE0E10392, 4, "long multiply (smull, smlal, umull)", regs({3: 0xFFFFFFFF}))
        # mul r0, r2, r3 with r3 = 0x10000 (16 >> 3 = 2).
        self.check(0xE0000392, 4, "multiply (mul, mla)", regs({3: 0x10000}))
        self.check(0xE1204382, 1, "halfword multiply (smulxy, smlawb)")  # smlawb r0, r2, r3, r4

    def test_data_processing(self):
        self.check(0xE0810002, 1, "other (data processing)")  # add r0, r1, r2
        self.check(0xE0810312, 2, "other (data processing)")  # add r0, r1, r2, lsl r3

    def test_a_failed_condition_costs_one(self):
        self.assertEqual(insn_count.desmume_cycles(0x059D0004, ALWAYS, regs({})), 1)  # ldreq


if __name__ == "__main__":
    unittest.main()
