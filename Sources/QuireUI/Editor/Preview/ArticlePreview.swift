import Foundation
import GtkKit
import Platform
import GtkWebKit
import Library
import SyncClient
import Transfer

/// The live preview of the open article: its title and Markdown rendered as the HTML export
/// renders them (``PreviewPage``), in a WebKit view that fetches nothing and runs none of the
/// article's scripts. Its images come from the article's attachments through the view's own
/// `attachment:` scheme (``readAttachment``), never from the network itself: one a pull left to
/// download is fetched through the sync worker, which stores it, and shown when it arrives; one
/// that cannot be had shows a sentence saying why (``AttachmentPlaceholder``). Links open in the
/// desktop's browser, never inside the preview.
///
/// The page is loaded once; each ``show(title:body:topLine:)`` renders off the main thread and
/// replaces the page's content, keeping the reader at the editor's line. Scrolling the preview
/// reports the Markdown line at its top (``scrolled``), so the editor can follow.
@MainActor
final class ArticlePreview {
    /// The web view, to place in the editor.
    let widget: WebView
    /// Called when the writer scrolled the preview, with the buffer line (from 0) at its top and
    /// how far into it.
    var scrolled: (@MainActor (_ line: Int, _ fraction: Double) -> Void)?
    /// Called when a rendering is on screen, with the number ``show(title:body:topLine:)``
    /// returned for it.
    var shown: (@MainActor (Int) -> Void)?
    /// Reads the bytes of an attachment the article shows, from the library or else through the
    /// sync worker, or says why there are none; nil when the library lacks them and no account
    /// syncs (the preview then shows no image).
    var readAttachment: (@MainActor (AttachmentReference) async -> AttachmentAnswer?)?
    /// Opens a link the writer clicked; by default in the desktop's browser.
    var openLink: @MainActor (String) -> Void = { uri in try? AppInfo.launchDefault(forURI: uri) }

    private var isLoaded = false
    /// A rendering that arrived before the page had loaded.
    private var pendingUpdate: String?
    private var generation = 0
    private let connections = SignalConnections()

    /// A preview showing an empty page in the app's style.
    init() {
        let content = UserContentManager(world: "quire")
        content.addScript(PreviewScript.source)
        widget = WebView(content: content)
        widget.setAccessibleLabel(gettext("Preview"))
        widget.expandsHorizontally = true
        widget.expandsVertically = true
        content.onMessage("scrolled") { [weak self] json in self?.reportScroll(json) }
        content.onMessage("shown") { [weak self] json in
            guard let number = Int(json) else { return }
            self?.shown?(number)
        }
        widget.navigationPolicy = { [weak self] request in self?.decide(request) ?? .deny }
        widget.serve(scheme: AttachmentReference.scheme) { [weak self] uri in await self?.attachmentImage(at: uri) }
        widget.loadFinished = { [weak self] in self?.pageLoaded() }
        let style = Self.style
        applyBackground(style)
        widget.loadHTML(PreviewPage.shell(style: style))
        StyleManager.shared.connect(.notify("dark")) { [weak self] _ in self?.followStyle() }.store(in: connections)
    }

    private static var style: PreviewPage.Style { StyleManager.shared.isDark ? .dark : .light }

    /// The page itself loads; every other navigation is a link the writer followed: the
    /// desktop opens it (web and mail addresses only) and the preview stays.
    private func decide(_ request: NavigationRequest) -> NavigationDecision {
        if request.uri == "about:blank" || (request.uri.hasPrefix("about:blank#") && !request.opensNewWindow) {
            return .allow
        }
        if let scheme = URL(string: request.uri)?.scheme?.lowercased(), ["http", "https", "mailto"].contains(scheme) {
            openLink(request.uri)
        }
        return .deny
    }

    /// The image an `attachment:` address in the page points to, with the media type its bytes
    /// say (the page's policy lets `<img>` load them, where an SVG's scripts never run); a
    /// sentence for one the library could not read or store or the sync worker could not fetch;
    /// nothing for an address that is not a reference, an attachment the article lacks with no
    /// account syncing, or a file that is not an image (a link to it is not loaded: navigations
    /// are denied).
    private func attachmentImage(at uri: String) async -> SchemeResponse? {
        guard let reference = AttachmentReference(uri: uri), let found = await readAttachment?(reference) else { return nil }
        guard let data = found.bytes else { return AttachmentPlaceholder.response(for: reference, found) }
        let mediaType = AttachmentMediaType.of(data)
        guard AttachmentMediaType.images.contains(mediaType) else { return nil }
        return SchemeResponse(bytes: [UInt8](data), mediaType: mediaType)
    }

    private func pageLoaded() {
        guard !isLoaded else { return }
        isLoaded = true
        if let pendingUpdate {
            self.pendingUpdate = nil
            run(pendingUpdate)
        }
    }

    /// Renders `title` and `body` off the main thread and shows them, scrolled to `topLine` of
    /// the body (from 0) and the fraction into it. Returns the rendering's number; a newer
    /// call's rendering replaces an older one that has not been shown yet.
    ///
    /// Renderings run on the ``TextPassWorker``, below the main thread's priority, one at a
    /// time: a call while one runs waits for it, and only the newest of the calls that waited is
    /// rendered (each renders the whole article, so the ones in between would be thrown away).
    @discardableResult
    func show(title: String, body: String, topLine: (line: Int, fraction: Double)) -> Int {
        generation += 1
        waitingRendering = (title, body, topLine, generation)
        renderWaiting()
        return generation
    }

    /// How many renderings ran (tests check that a burst of calls renders only the newest).
    private(set) var renderingsRun = 0
    /// The newest rendering asked for while another ran.
    private var waitingRendering: (title: String, body: String, topLine: (line: Int, fraction: Double), number: Int)?
    private var isRendering = false

    private func renderWaiting() {
        guard !isRendering, let (title, body, topLine, number) = waitingRendering else { return }
        waitingRendering = nil
        isRendering = true
        renderingsRun += 1
        Task { @MainActor [weak self] in
            let script = await TextPassWorker.preview.run {
                let html = PreviewPage.content(title: title, markdown: body)
                return "quire.update(\(Self.javaScriptString(html)), \(number), \(topLine.line + 1), \(topLine.fraction))"
            }
            guard let self else { return }
            self.isRendering = false
            if number == self.generation {
                if self.isLoaded { self.run(script) } else { self.pendingUpdate = script }
            }
            self.renderWaiting()
        }
    }

    /// Scrolls the preview so that `line` of the body (from 0), `fraction` into it, is at the top.
    func scroll(toLine line: Int, fraction: Double) {
        guard isLoaded else { return }
        run("quire.scrollToLine(\(line + 1), \(fraction))")
    }

    /// Runs one of the preview script's calls; the script is the app's own, so a failure is a
    /// bug in it, which the next rendering replaces.
    private func run(_ script: String) {
        Task { @MainActor [widget] in _ = try? await widget.evaluate(script) }
    }

    /// Runs `script` and returns its result as JSON (tests read the page through it).
    func evaluate(_ script: String) async throws -> String {
        try await widget.evaluate(script)
    }

    private func reportScroll(_ json: String) {
        let numbers = json.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).split(separator: ",").compactMap { Double($0) }
        guard numbers.count == 2 else { return }
        scrolled?(max(0, Int(numbers[0]) - 1), numbers[1])
    }

    private func followStyle() {
        let style = Self.style
        applyBackground(style)
        run("quire.setStyle('\(style.rawValue)')")
    }

    /// The export style sheet's page colour, so that the view shows no white before it paints.
    private func applyBackground(_ style: PreviewPage.Style) {
        switch style {
        case .light: widget.setBackground(red: 1, green: 1, blue: 1)
        case .dark: widget.setBackground(red: 0x1e / 255, green: 0x1e / 255, blue: 0x1e / 255)
        }
    }

    /// `text` as a JavaScript string literal.
    nonisolated static func javaScriptString(_ text: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: [text])) ?? Data("[\"\"]".utf8)
        return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
    }
}
