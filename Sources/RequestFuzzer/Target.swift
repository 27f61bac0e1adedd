/// One parser under fuzzing: its seeds, its tokens, and one execution, which returns the
/// invariant an input broke (nil when it held). A crash or a hang is caught outside.
struct Target {
    let name: String
    let seeds: [[UInt8]]
    let tokens: ParserTokens
    let run: (_ input: [UInt8]) -> String?
    var executions = 0
}

/// Whether `needle` occurs in `haystack` as a contiguous run.
func contains(_ haystack: some Collection<UInt8>, _ needle: some Collection<UInt8>) -> Bool {
    guard let first = needle.first else { return true }
    let haystack = Array(haystack)
    let needle = Array(needle)
    guard haystack.count >= needle.count else { return false }
    for index in 0...(haystack.count - needle.count) where haystack[index] == first {
        if haystack[index..<index + needle.count].elementsEqual(needle) { return true }
    }
    return false
}

/// A card number (a value of 13 to 19 digits passing Luhn's check, as a card field holds it) that
/// `text` repeats: card data echoed in an error.
func echoedCardNumber(in text: String, values: [String]) -> String? {
    values.first { value in
        (13...19).contains(value.utf8.count) && value.utf8.allSatisfy { (0x30...0x39).contains($0) }
            && passesLuhn(Array(value.utf8)) && text.contains(value)
    }
}

private func passesLuhn(_ digits: [UInt8]) -> Bool {
    var sum = 0
    for (index, digit) in digits.reversed().map({ Int($0 - 0x30) }).enumerated() {
        sum += index % 2 == 1 ? (digit * 2 > 9 ? digit * 2 - 9 : digit * 2) : digit
    }
    return sum % 10 == 0
}
