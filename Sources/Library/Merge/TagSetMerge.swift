/// The three-way merge of an article's tags as a set: a tag stays unless a side removed it, and a
/// tag either side added is added. It never conflicts.
///
/// The order is the base's (minus removals), then the tags this device added in its order, then those
/// the other side added, so the result does not depend on hashing.
public enum TagSetMerge {
    /// The merged tags.
    public static func merge(base: [String], mine: [String], theirs: [String]) -> [String] {
        let baseSet = Set(base)
        let mineSet = Set(mine)
        let theirsSet = Set(theirs)
        var merged: [String] = []
        var seen: Set<String> = []
        for tag in base where mineSet.contains(tag) && theirsSet.contains(tag) && seen.insert(tag).inserted {
            merged.append(tag)
        }
        for tag in mine + theirs where !baseSet.contains(tag) && seen.insert(tag).inserted {
            merged.append(tag)
        }
        return merged
    }
}
