import Library

/// The history's size limit in GSettings: `history-size-percent` of the library (10 by default)
/// or `history-size-megabytes` (200 by default), whichever is larger (``HistorySizeLimit``).
/// Without an installed schema it lives in memory for the run.
extension EditorPreferences {
    /// How much text the version history may hold; the library trims to it as sessions end.
    var historySizeLimit: HistorySizeLimit {
        get {
            guard let settings else { return memoryHistoryLimit }
            return HistorySizeLimit(
                fractionOfLibrary: Double(settings.int(forKey: "history-size-percent")) / 100,
                bytes: Int64(settings.int(forKey: "history-size-megabytes")) * 1_000_000)
        }
        set {
            write {
                $0.set(Int32((newValue.fractionOfLibrary * 100).rounded()), forKey: "history-size-percent")
                $0.set(Int32(newValue.bytes / 1_000_000), forKey: "history-size-megabytes")
            } orRemember: {
                self.memoryHistoryLimit = newValue
            }
        }
    }
}
