/// Folder or tag names in the order first seen, each once (by exact string equality).
struct OrderedNames {
    private(set) var names: [String] = []
    private var seen: Set<String> = []

    init(_ names: [String] = []) { names.forEach { insert($0) } }

    mutating func insert(_ name: String) {
        if seen.insert(name).inserted { names.append(name) }
    }
}
