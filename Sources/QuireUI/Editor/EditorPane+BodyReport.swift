import GtkKit

/// How the writer's changes of the body reach ``EditorPane/bodyChanged``.
///
/// Reporting a change copies the whole body out of the text buffer. For an ordinary article that
/// is nothing, so every change is reported at once. A book-length body (150,000 words, about
/// 1 MB) took two such copies per keystroke, on the main thread: its changes are reported at
/// most every ``longBodyReportDelay`` milliseconds instead, with the text as it is then. Whoever
/// saves or replaces the draft first calls ``reportPendingBodyChange()``, so no change waits
/// past a save.
extension EditorPane {
    /// Bodies of more characters than this are reported at most every ``longBodyReportDelay``.
    static let longBodyCharacters = 32_768
    /// How long the change of a book-length body may wait for its report (milliseconds).
    static let longBodyReportDelay: UInt32 = 250

    /// Whether a change of the body waits for its report.
    public var hasPendingBodyChange: Bool { bodyReport != nil }

    /// Reports a change of the body that waits for its report now; does nothing when none waits.
    public func reportPendingBodyChange() {
        guard bodyReport != nil else { return }
        bodyReport?.cancel()
        bodyReport = nil
        bodyChanged?(buffer.text)
    }

    /// Reports the writer's change of the body: at once, or for a book-length body once the
    /// report already waiting (or a new one) is due.
    func reportBodyChange() {
        guard buffer.characterCount > Self.longBodyCharacters else {
            bodyReport?.cancel()
            bodyReport = nil
            bodyChanged?(buffer.text)
            return
        }
        guard bodyReport == nil else { return }
        bodyReport = Timeout(milliseconds: Self.longBodyReportDelay) { [weak self] in self?.reportPendingBodyChange() }
    }
}
