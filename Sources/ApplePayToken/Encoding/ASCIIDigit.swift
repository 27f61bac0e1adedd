extension UInt8 {
    /// '0' to '9'. Digit rules are checked on a field's UTF-8 bytes: if every byte is an ASCII
    /// digit, so is every Character, one byte each, and reading Characters costs grapheme breaking.
    package var isASCIIDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }
}
