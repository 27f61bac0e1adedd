/// Small random edits of a known text, for tests that compare two implementations of one check
/// (a pattern, a decoder): an example that passes, edited up to three times, comes out on both
/// sides of the check often enough for the comparison to mean something.
public enum TextEdits {
    /// `text` with 0 to `maximumEdits` edits, each a replacement, an insertion or a deletion of
    /// one character drawn from `alphabet`.
    public static func randomlyEdited<Generator: RandomNumberGenerator>(
        _ text: String,
        alphabet: [Character],
        maximumEdits: Int = 3,
        using generator: inout Generator
    ) -> String {
        var characters = Array(text)
        for _ in 0..<Int.random(in: 0...maximumEdits, using: &generator) {
            let position = Int.random(in: 0...characters.count, using: &generator)
            let character = alphabet.randomElement(using: &generator)!
            switch Int.random(in: 0..<3, using: &generator) {
            case 0 where position < characters.count: characters[position] = character
            case 1: characters.insert(character, at: position)
            default: if position < characters.count { characters.remove(at: position) }
            }
        }
        return String(characters)
    }
}
