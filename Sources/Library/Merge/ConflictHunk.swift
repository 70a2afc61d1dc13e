/// One place where both sides changed a text in ways a merge cannot reconcile by itself, with the
/// three versions of that place, for a side-by-side dialog with a choice per change.
public struct ConflictHunk: Sendable, Hashable, Identifiable {
    /// Why the merge would not decide.
    public enum Reason: Sendable, Hashable {
        /// Both sides changed some of the same base lines, or inserted at the same place.
        case overlapping
        /// The sides changed different lines with no unchanged line between them.
        case adjacent
        /// The changes are separated only by a run of blank or repeated base lines, where the line
        /// matching is a guess (see ``TextMerge``).
        case ambiguousBase
        /// A side differs from the base by more than the diff's cost limit, so its changes could not
        /// be placed precisely.
        case diffTooLarge
    }

    /// The hunk's position among the text's conflicts, from 0.
    public let id: Int
    /// The base's text of this place (empty where both sides inserted).
    public let base: String
    /// This device's text of this place.
    public let mine: String
    /// The server's (other side's) text of this place.
    public let theirs: String
    /// The lines of the base, of mine and of theirs that the hunk covers (line indices, from 0).
    public let baseLines: Range<Int>
    /// The lines of this device's text that the hunk covers.
    public let mineLines: Range<Int>
    /// The lines of the other side's text that the hunk covers.
    public let theirsLines: Range<Int>
    /// Why the merge would not decide.
    public let reason: Reason
    /// The line ending most lines of the three texts use, for joining two sides' lines.
    let lineEnding: String

    /// The text that `choice` puts in this place.
    public func text(for choice: ConflictChoice) -> String {
        switch choice {
        case .mine: return mine
        case .theirs: return theirs
        case .base: return base
        case .mineThenTheirs: return join(mine, theirs)
        case .theirsThenMine: return join(theirs, mine)
        case .edited(let text): return text
        }
    }

    /// Joins two blocks of lines, ending the first block's last line if it lacks a terminator.
    private func join(_ first: String, _ second: String) -> String {
        // Bytes, not Characters: "\r\n" is one Character, which `hasSuffix("\n")` would not match.
        guard !first.isEmpty, !second.isEmpty, first.utf8.last != UInt8(ascii: "\n") else { return first + second }
        return first + lineEnding + second
    }
}

/// What the writer picked for one conflicting change.
public enum ConflictChoice: Sendable, Hashable {
    /// This device's version.
    case mine
    /// The other side's version.
    case theirs
    /// The version both started from.
    case base
    /// This device's lines followed by the other side's.
    case mineThenTheirs
    /// The other side's lines followed by this device's.
    case theirsThenMine
    /// Text the writer typed for this place.
    case edited(String)
}
