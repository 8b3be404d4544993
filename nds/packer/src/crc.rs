//! CRC-16/MODBUS, the checksum the DS BIOS uses for the logo and the header:
//! init 0xFFFF, reflected polynomial 0xA001, no final XOR.

pub fn crc16_modbus(data: &[u8]) -> u16 {
    let mut crc: u16 = 0xFFFF;
    for &byte in data {
        crc ^= u16::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xA001
            } else {
                crc >> 1
            };
        }
    }
    crc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_value_of_the_catalogue() {
        // The standard "check" value of CRC-16/MODBUS.
        assert_eq!(crc16_modbus(b"123456789"), 0x4B37);
    }

    #[test]
    fn empty_input_is_the_init_value() {
        assert_eq!(crc16_modbus(&[]), 0xFFFF);
    }

    #[test]
    fn single_bytes() {
        // Worked by hand from the reflected algorithm.
        assert_eq!(crc16_modbus(&[0x00]), 0x40BF);
        assert_eq!(crc16_modbus(&[0xFF]), 0x00FF);
    }
}
