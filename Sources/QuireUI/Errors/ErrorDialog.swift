import GtkKit

/// A message dialog that tells the writer what went wrong (`error-dialog.ui`): a heading that
/// says what did not happen, a sentence saying why and what now, and the technical details in an
/// expander under it (hidden when there are none). The caller adds the responses.
///
/// ```swift
/// let explanation = ErrorExplanation(error, libraryPath: library.url.path)
/// let dialog = try ErrorDialog(heading: "Could not create the folder “Notes”", explanation: explanation, over: window)
/// dialog.window.addResponse("close", label: "_Close")
/// dialog.window.present()
/// ```
///
/// ``ErrorPresenter`` shows every error of the main window this way; ``LibraryProblemDialog``
/// builds on it with the choices a library problem offers.
@MainActor
struct ErrorDialog {
    /// The dialog.
    let window: MessageDialog
    /// The expander holding the details.
    let details: Expander
    /// The label inside it.
    let detailsLabel: Label

    /// A dialog, modal over `parent`, saying `sentence` under `heading`, with `details` to expand.
    init(heading: String, sentence: String, details text: String, over parent: Window?) throws {
        QuireResources.register()
        let builder = try Builder(resource: Quire.resourcePath + "errors/error-dialog.ui")
        window = try builder.object("error_dialog")
        details = try builder.object("error_details")
        detailsLabel = try builder.object("error_detail")
        window.transientFor = parent
        window.heading = heading
        window.body = sentence
        detailsLabel.text = text
        details.isVisible = !text.isEmpty
    }

    /// A dialog saying what `explanation` says under `heading`.
    init(heading: String, explanation: ErrorExplanation, over parent: Window?) throws {
        try self.init(heading: heading, sentence: explanation.sentence, details: explanation.details, over: parent)
    }
}
