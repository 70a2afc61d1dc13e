/// The order of a fetched-results controller's rows: an order-statistic B+ tree of 64-bit elements.
///
/// The controller's elements are its rows' entries (``SortKeyTable/entry(of:)``: a row's slot and
/// the prefix of its first sort key). The tree never looks at their values itself: every search
/// takes a comparison of an element with what is sought. Leaves hold up to
/// `leafCapacity` elements; each branch keeps, per child, its number of rows, its number of marked
/// rows and its first element, so that
/// - the element at a position, and the position of an element found by comparison, take one
///   descent (O(log n));
/// - an insert or removal takes one descent plus the splits, merges and count updates on its path.
///
/// Marks are one bit per row, counted in every branch like the rows: a controller with sections
/// marks the first row of each section, so that a row's section number is the number of marks
/// up to it and a section's first row is the k-th mark.
final class OrderStatisticTree {
    final class Node {
        let isLeaf: Bool
        /// Rows in the subtree.
        var count = 0
        /// Marked rows in the subtree.
        var markCount = 0
        /// Leaves: the elements, in order.
        var elements: ContiguousArray<UInt64> = []
        /// Leaves that track marks: one flag per element.
        var marks: ContiguousArray<Bool> = []
        /// Branches: the children, in order.
        var children: ContiguousArray<Node> = []
        /// Branches: rows per child.
        var counts: ContiguousArray<Int> = []
        /// Branches: marked rows per child.
        var markCounts: ContiguousArray<Int> = []
        /// Branches: the first element of each child, which a descent compares with what it seeks.
        var firsts: ContiguousArray<UInt64> = []

        init(isLeaf: Bool) {
            self.isLeaf = isLeaf
        }

        /// The number of entries: elements of a leaf, children of a branch.
        var width: Int { isLeaf ? elements.count : children.count }

        var first: UInt64 { isLeaf ? elements[0] : firsts[0] }
    }

    /// The most elements a leaf holds; a leaf with fewer than half is merged or refilled.
    let leafCapacity: Int
    /// The most children a branch holds; likewise half at least.
    let branchCapacity: Int
    /// Whether rows carry marks.
    let tracksMarks: Bool
    private(set) var root: Node

    /// An empty tree.
    init(tracksMarks: Bool, leafCapacity: Int = 128, branchCapacity: Int = 64) {
        precondition(leafCapacity >= 4 && branchCapacity >= 4, "nodes need room to split")
        self.tracksMarks = tracksMarks
        self.leafCapacity = leafCapacity
        self.branchCapacity = branchCapacity
        root = Node(isLeaf: true)
    }

    /// A tree of `elements`, already in order, built bottom-up in O(n) with nodes seven-eighths
    /// full, so that inserts do not split them at once. `marks`, when tracked, gives each row's mark.
    convenience init<Elements: Collection<UInt64>>(
        sorted elements: Elements, marks: [Bool]? = nil, leafCapacity: Int = 128, branchCapacity: Int = 64
    ) {
        self.init(tracksMarks: marks != nil, leafCapacity: leafCapacity, branchCapacity: branchCapacity)
        guard !elements.isEmpty else { return }
        var level: [Node] = []
        var start = elements.startIndex
        var offset = 0
        for size in Self.evenSizes(total: elements.count, fill: leafCapacity * 7 / 8) {
            let end = elements.index(start, offsetBy: size)
            let leaf = Node(isLeaf: true)
            leaf.elements = ContiguousArray(elements[start..<end])
            leaf.count = size
            if let marks {
                leaf.marks = ContiguousArray(marks[offset..<(offset + size)])
                leaf.markCount = leaf.marks.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            level.append(leaf)
            start = end
            offset += size
        }
        while level.count > 1 {
            var next: [Node] = []
            var index = 0
            for size in Self.evenSizes(total: level.count, fill: branchCapacity * 7 / 8) {
                let branch = Node(isLeaf: false)
                for child in level[index..<(index + size)] { Self.append(child, to: branch) }
                next.append(branch)
                index += size
            }
            level = next
        }
        root = level[0]
    }

    /// Splits `total` into the fewest parts of at most `fill`, as even as possible.
    private static func evenSizes(total: Int, fill: Int) -> [Int] {
        let parts = (total + fill - 1) / fill
        return (0..<parts).map { total / parts + ($0 < total % parts ? 1 : 0) }
    }

    private static func append(_ child: Node, to branch: Node) {
        branch.children.append(child)
        branch.counts.append(child.count)
        branch.markCounts.append(child.markCount)
        branch.firsts.append(child.first)
        branch.count += child.count
        branch.markCount += child.markCount
    }

    /// The number of rows.
    var count: Int { root.count }

    /// The number of marked rows.
    var markCount: Int { root.markCount }

    // MARK: Positions

    /// The element at `index` (`0 ..< count`).
    func element(at index: Int) -> UInt64 {
        precondition(index >= 0 && index < count, "row index \(index) out of range 0..<\(count)")
        var node = root
        var remaining = index
        while !node.isLeaf {
            var child = 0
            while remaining >= node.counts[child] {
                remaining -= node.counts[child]
                child += 1
            }
            node = node.children[child]
        }
        return node.elements[remaining]
    }

    /// Calls `body` with the elements at `range`, in order, walking the leaves once.
    func forEachElement(in range: Range<Int>, _ body: (UInt64) -> Void) {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "rows \(range) out of range 0..<\(count)")
        guard !range.isEmpty else { return }
        visit(root, skipping: range.lowerBound, taking: range.count, body)
    }

    /// Visits `taking` elements of `node` after the first `skipping`; returns how many it visited.
    @discardableResult
    private func visit(_ node: Node, skipping: Int, taking: Int, _ body: (UInt64) -> Void) -> Int {
        if node.isLeaf {
            let end = min(node.elements.count, skipping + taking)
            for position in skipping..<end { body(node.elements[position]) }
            return end - skipping
        }
        var skipping = skipping
        var visited = 0
        for (child, rows) in zip(node.children, node.counts) {
            if skipping >= rows {
                skipping -= rows
                continue
            }
            visited += visit(child, skipping: skipping, taking: taking - visited, body)
            skipping = 0
            if visited == taking { break }
        }
        return visited
    }

    /// The index of the element for which `compare` returns 0, or nil. `compare` tells how an
    /// element orders against the one sought (negative: it comes before).
    func index(where compare: (UInt64) -> Int) -> Int? {
        var node = root
        var index = 0
        while !node.isLeaf {
            // The sought element, if present, is in the last child whose first element is not after it.
            guard let child = lastChild(of: node, where: { compare($0) <= 0 }) else { return nil }
            for earlier in 0..<child { index += node.counts[earlier] }
            node = node.children[child]
        }
        let position = Self.partition(node.elements) { compare($0) >= 0 }
        guard position < node.elements.count, compare(node.elements[position]) == 0 else { return nil }
        return index + position
    }

    /// The index of the first element for which `compare` is not negative (`count` if none): where
    /// the first element equal to what is sought is, or would be inserted.
    func lowerBound(where compare: (UInt64) -> Int) -> Int {
        var node = root
        var index = 0
        while !node.isLeaf {
            let child = lastChild(of: node) { compare($0) < 0 } ?? 0
            for earlier in 0..<child { index += node.counts[earlier] }
            node = node.children[child]
        }
        return index + Self.partition(node.elements) { compare($0) >= 0 }
    }

    /// The last child whose first element satisfies `isBefore` (which holds for a prefix of children).
    @inline(__always)
    private func lastChild(of node: Node, where isBefore: (UInt64) -> Bool) -> Int? {
        let after = Self.partition(node.firsts) { !isBefore($0) }
        return after == 0 ? nil : after - 1
    }

    /// The first position of `elements` where `isAfter` holds (it holds for a suffix).
    @inline(__always)
    private static func partition(_ elements: ContiguousArray<UInt64>, _ isAfter: (UInt64) -> Bool) -> Int {
        var low = 0
        var high = elements.count
        while low < high {
            let middle = (low + high) / 2
            if isAfter(elements[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }

    // MARK: Inserting

    /// Inserts `element` after every element for which `compare` is not positive, unmarked, and
    /// returns its index. `compare` tells how an element orders against the new one.
    @discardableResult
    func insert(_ element: UInt64, _ compare: (UInt64) -> Int) -> Int {
        var index = 0
        if let sibling = insert(element, into: root, compare, index: &index) {
            let newRoot = Node(isLeaf: false)
            Self.append(root, to: newRoot)
            Self.append(sibling, to: newRoot)
            root = newRoot
        }
        return index
    }

    /// Inserts into the subtree and returns the new right sibling when `node` split.
    private func insert(_ element: UInt64, into node: Node, _ compare: (UInt64) -> Int, index: inout Int) -> Node? {
        if node.isLeaf {
            let position = Self.partition(node.elements) { compare($0) > 0 }
            node.elements.insert(element, at: position)
            if tracksMarks { node.marks.insert(false, at: position) }
            node.count += 1
            index += position
            return node.elements.count > leafCapacity ? split(node) : nil
        }
        let child = lastChild(of: node) { compare($0) <= 0 } ?? 0
        for earlier in 0..<child { index += node.counts[earlier] }
        let sibling = insert(element, into: node.children[child], compare, index: &index)
        node.counts[child] += 1
        node.count += 1
        node.firsts[child] = node.children[child].first
        if let sibling {
            // The split moved rows (and marks) from the child into its new sibling.
            let moved = node.children[child]
            node.counts[child] = moved.count
            node.markCounts[child] = moved.markCount
            node.children.insert(sibling, at: child + 1)
            node.counts.insert(sibling.count, at: child + 1)
            node.markCounts.insert(sibling.markCount, at: child + 1)
            node.firsts.insert(sibling.first, at: child + 1)
        }
        return node.children.count > branchCapacity ? split(node) : nil
    }

    /// Moves the upper half of an overfull node into a new right sibling.
    private func split(_ node: Node) -> Node {
        let sibling = Node(isLeaf: node.isLeaf)
        let half = node.width / 2
        if node.isLeaf {
            sibling.elements = ContiguousArray(node.elements[half...])
            node.elements.removeSubrange(half...)
            if tracksMarks {
                sibling.marks = ContiguousArray(node.marks[half...])
                node.marks.removeSubrange(half...)
            }
        } else {
            sibling.children = ContiguousArray(node.children[half...])
            sibling.counts = ContiguousArray(node.counts[half...])
            sibling.markCounts = ContiguousArray(node.markCounts[half...])
            sibling.firsts = ContiguousArray(node.firsts[half...])
            node.children.removeSubrange(half...)
            node.counts.removeSubrange(half...)
            node.markCounts.removeSubrange(half...)
            node.firsts.removeSubrange(half...)
        }
        Self.recount(node)
        Self.recount(sibling)
        return sibling
    }

    /// Recomputes a node's totals from its entries.
    private static func recount(_ node: Node) {
        if node.isLeaf {
            node.count = node.elements.count
            node.markCount = node.marks.reduce(0) { $0 + ($1 ? 1 : 0) }
        } else {
            node.count = node.counts.reduce(0, +)
            node.markCount = node.markCounts.reduce(0, +)
        }
    }

    // MARK: Removing

    /// Removes the element for which `compare` returns 0 and returns its index, or nil when there
    /// is none.
    @discardableResult
    func remove(where compare: (UInt64) -> Int) -> Int? {
        var index = 0
        guard remove(from: root, compare, index: &index) else { return nil }
        if !root.isLeaf && root.children.count == 1 { root = root.children[0] }
        return index
    }

    private func remove(from node: Node, _ compare: (UInt64) -> Int, index: inout Int) -> Bool {
        if node.isLeaf {
            let position = Self.partition(node.elements) { compare($0) >= 0 }
            guard position < node.elements.count, compare(node.elements[position]) == 0 else { return false }
            node.elements.remove(at: position)
            if tracksMarks, node.marks.remove(at: position) { node.markCount -= 1 }
            node.count -= 1
            index += position
            return true
        }
        guard let child = lastChild(of: node, where: { compare($0) <= 0 }) else { return false }
        for earlier in 0..<child { index += node.counts[earlier] }
        let target = node.children[child]
        guard remove(from: target, compare, index: &index) else { return false }
        node.count -= 1
        node.counts[child] -= 1
        node.markCount += target.markCount - node.markCounts[child]
        node.markCounts[child] = target.markCount
        let minimum = (target.isLeaf ? leafCapacity : branchCapacity) / 2
        if target.width < minimum && node.children.count > 1 {
            rebalance(node, child: child)
        } else if target.width > 0 {
            node.firsts[child] = target.first
        }
        return true
    }

    /// Refills an underfull child from a neighbour: merges the two when they fit in one node,
    /// otherwise shares their entries evenly.
    private func rebalance(_ parent: Node, child: Int) {
        let left = child > 0 ? child - 1 : child
        let leftNode = parent.children[left]
        let rightNode = parent.children[left + 1]
        let capacity = leftNode.isLeaf ? leafCapacity : branchCapacity
        let total = leftNode.width + rightNode.width
        if total <= capacity {
            if leftNode.isLeaf {
                leftNode.elements += rightNode.elements
                leftNode.marks += rightNode.marks
            } else {
                leftNode.children += rightNode.children
                leftNode.counts += rightNode.counts
                leftNode.markCounts += rightNode.markCounts
                leftNode.firsts += rightNode.firsts
            }
            Self.recount(leftNode)
            parent.children.remove(at: left + 1)
            parent.counts.remove(at: left + 1)
            parent.markCounts.remove(at: left + 1)
            parent.firsts.remove(at: left + 1)
        } else {
            let leftWidth = total / 2
            if leftNode.isLeaf {
                var elements = leftNode.elements + rightNode.elements
                var marks = leftNode.marks + rightNode.marks
                rightNode.elements = ContiguousArray(elements[leftWidth...])
                elements.removeSubrange(leftWidth...)
                leftNode.elements = elements
                if tracksMarks {
                    rightNode.marks = ContiguousArray(marks[leftWidth...])
                    marks.removeSubrange(leftWidth...)
                    leftNode.marks = marks
                }
            } else {
                let children = leftNode.children + rightNode.children
                let counts = leftNode.counts + rightNode.counts
                let markCounts = leftNode.markCounts + rightNode.markCounts
                let firsts = leftNode.firsts + rightNode.firsts
                leftNode.children = ContiguousArray(children[..<leftWidth])
                leftNode.counts = ContiguousArray(counts[..<leftWidth])
                leftNode.markCounts = ContiguousArray(markCounts[..<leftWidth])
                leftNode.firsts = ContiguousArray(firsts[..<leftWidth])
                rightNode.children = ContiguousArray(children[leftWidth...])
                rightNode.counts = ContiguousArray(counts[leftWidth...])
                rightNode.markCounts = ContiguousArray(markCounts[leftWidth...])
                rightNode.firsts = ContiguousArray(firsts[leftWidth...])
            }
            Self.recount(leftNode)
            Self.recount(rightNode)
            parent.counts[left + 1] = rightNode.count
            parent.markCounts[left + 1] = rightNode.markCount
            parent.firsts[left + 1] = rightNode.first
        }
        parent.counts[left] = leftNode.count
        parent.markCounts[left] = leftNode.markCount
        parent.firsts[left] = leftNode.first
    }

    // MARK: Marks

    /// Whether the row at `index` is marked.
    func isMarked(at index: Int) -> Bool {
        precondition(tracksMarks, "the tree does not track marks")
        let (leaf, position) = leafPosition(of: index)
        return leaf.marks[position]
    }

    /// Marks or unmarks the row at `index`.
    func setMark(_ marked: Bool, at index: Int) {
        precondition(tracksMarks, "the tree does not track marks")
        precondition(index >= 0 && index < count, "row index \(index) out of range 0..<\(count)")
        var node = root
        var remaining = index
        var path: [(Node, Int)] = []
        while !node.isLeaf {
            var child = 0
            while remaining >= node.counts[child] {
                remaining -= node.counts[child]
                child += 1
            }
            path.append((node, child))
            node = node.children[child]
        }
        guard node.marks[remaining] != marked else { return }
        node.marks[remaining] = marked
        let delta = marked ? 1 : -1
        node.markCount += delta
        for (branch, child) in path {
            branch.markCounts[child] += delta
            branch.markCount += delta
        }
    }

    /// The number of marked rows before `index` (`0 ... count`).
    func marks(before index: Int) -> Int {
        precondition(tracksMarks, "the tree does not track marks")
        precondition(index >= 0 && index <= count, "row index \(index) out of range 0...\(count)")
        var node = root
        var remaining = index
        var marks = 0
        while !node.isLeaf {
            var child = 0
            while child < node.children.count && remaining >= node.counts[child] {
                remaining -= node.counts[child]
                marks += node.markCounts[child]
                child += 1
            }
            if child == node.children.count { return marks }
            node = node.children[child]
        }
        for position in 0..<remaining where node.marks[position] { marks += 1 }
        return marks
    }

    /// The index of the `ordinal`-th marked row (from 0).
    func indexOfMark(_ ordinal: Int) -> Int {
        precondition(tracksMarks, "the tree does not track marks")
        precondition(ordinal >= 0 && ordinal < markCount, "mark \(ordinal) out of range 0..<\(markCount)")
        var node = root
        var remaining = ordinal
        var index = 0
        while !node.isLeaf {
            var child = 0
            while remaining >= node.markCounts[child] {
                remaining -= node.markCounts[child]
                index += node.counts[child]
                child += 1
            }
            node = node.children[child]
        }
        for (position, marked) in node.marks.enumerated() where marked {
            if remaining == 0 { return index + position }
            remaining -= 1
        }
        preconditionFailure("mark counts disagree with the leaves")
    }

    private func leafPosition(of index: Int) -> (Node, Int) {
        precondition(index >= 0 && index < count, "row index \(index) out of range 0..<\(count)")
        var node = root
        var remaining = index
        while !node.isLeaf {
            var child = 0
            while remaining >= node.counts[child] {
                remaining -= node.counts[child]
                child += 1
            }
            node = node.children[child]
        }
        return (node, remaining)
    }

    // MARK: Checking

    /// Every broken invariant (counts, firsts, node sizes, depth), for tests: empty when sound.
    func invariantViolations() -> [String] {
        var violations: [String] = []
        var leafDepth: Int?
        func check(_ node: Node, depth: Int, isRoot: Bool) {
            if node.isLeaf {
                if leafDepth == nil { leafDepth = depth }
                if leafDepth != depth { violations.append("leaves at depths \(leafDepth!) and \(depth)") }
                if node.count != node.elements.count { violations.append("leaf count \(node.count) for \(node.elements.count) elements") }
                if tracksMarks && node.marks.count != node.elements.count { violations.append("leaf marks do not match elements") }
                if node.markCount != node.marks.reduce(0, { $0 + ($1 ? 1 : 0) }) { violations.append("leaf mark count") }
                if node.elements.count > leafCapacity { violations.append("overfull leaf") }
                if !isRoot && node.elements.isEmpty { violations.append("empty leaf") }
                return
            }
            if node.children.count > branchCapacity { violations.append("overfull branch") }
            if node.children.count < (isRoot ? 2 : 1) { violations.append("branch with \(node.children.count) children") }
            if node.counts.count != node.children.count || node.firsts.count != node.children.count
                || node.markCounts.count != node.children.count {
                violations.append("branch arrays disagree")
                return
            }
            for (position, child) in node.children.enumerated() {
                if node.counts[position] != child.count { violations.append("branch count \(node.counts[position]) for \(child.count)") }
                if node.markCounts[position] != child.markCount { violations.append("branch mark count") }
                if child.width > 0 && node.firsts[position] != child.first { violations.append("stale first element") }
                check(child, depth: depth + 1, isRoot: false)
            }
            if node.count != node.counts.reduce(0, +) { violations.append("branch total") }
            if node.markCount != node.markCounts.reduce(0, +) { violations.append("branch mark total") }
        }
        check(root, depth: 0, isRoot: true)
        return violations
    }
}
