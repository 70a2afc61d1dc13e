/// A fetched-results controller's rows: its plan, the rows' keys and sort-key values, and their
/// order. Made from a fetch's query on any thread (it touches no context), then kept and
/// changed on the controller's context's queue.
struct FetchedRows {
    let plan: FetchedResultsPlan
    let table: SortKeyTable
    /// The rows' entries (``SortKeyTable/entry(of:)``) in order.
    let tree: OrderStatisticTree

    /// The first `count` rows of `table`, which were read in order.
    init(plan: FetchedResultsPlan, table: SortKeyTable, count: Int) {
        // Sections start where the first sort key changes.
        let marks = plan.isSectioned ? (0..<Int32(count)).map { $0 == 0 || table.compareFirstKey($0 - 1, $0) != 0 } : nil
        self.plan = plan
        self.table = table
        tree = OrderStatisticTree(sorted: table.entries(ofFirst: count), marks: marks)
    }

    /// The slot of the row at `index`.
    func slot(at index: Int) -> Int32 {
        SortKeyTable.slot(of: tree.element(at: index))
    }

    /// Calls `body` with the slots of the rows at `range`, in order.
    func forEachSlot(in range: Range<Int>, _ body: (Int32) -> Void) {
        tree.forEachElement(in: range) { body(SortKeyTable.slot(of: $0)) }
    }

    /// Reads the rows the plan's query selects (its first `limit`, when given), but those with
    /// `excluded` keys, into a new table; returns it and how many rows it holds.
    static func read(
        _ plan: FetchedResultsPlan, limit: Int?, excluding excluded: Set<Int64>, on connection: SQLiteConnection
    ) throws -> (table: SortKeyTable, count: Int) {
        let table = SortKeyTable(columns: plan.columns)
        let statement = try connection.statement(plan.sql + (limit.map { " LIMIT \($0)" } ?? ""))
        defer { statement.reset() }
        statement.bind(plan.bindings)
        return (table, try table.load(from: statement, excluding: excluded))
    }
}
