/// How far an export job has come, reported after every article.
///
/// Formats that walk the articles twice (a combined document's table of contents, a combined PDF's
/// page numbers) count every article once per pass, so `total` is a multiple of the article count.
public struct ExportProgress: Sendable, Hashable {
    /// Steps done.
    public var completed: Int
    /// Steps in the whole job.
    public var total: Int

    /// Progress of `completed` out of `total` steps.
    public init(completed: Int, total: Int) {
        self.completed = completed
        self.total = total
    }

    /// The share done, from 0 to 1 (1 for an empty job).
    public var fractionCompleted: Double { total == 0 ? 1 : Double(completed) / Double(total) }
}
