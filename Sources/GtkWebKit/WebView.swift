import CGtk
import CWebKit
import GtkKit

/// A `WebKitWebView`: a web page in a widget. Quire shows pages it makes itself (the article
/// preview), so a new view is set up for that: an ephemeral network session (no cache, cookies or
/// storage on disk), JavaScript in the page off (`enable-javascript-markup`: `<script>` elements
/// and `on…` attributes never run) while the app's own scripts still run through
/// ``evaluate(_:)`` and ``UserContentManager/addScript(_:)``, no developer tools, and drawing in
/// software (``WebSettings/usesHardwareAcceleration``).
///
/// ```swift
/// let content = UserContentManager(world: "quire")
/// content.onMessage("scrolled") { json in follow(json) }  // window.webkit.messageHandlers.scrolled.postMessage(…)
/// let view = WebView(content: content)
/// view.navigationPolicy = { request in request.isInitialLoad ? .allow : .deny }
/// view.loadHTML(page)
/// let title = try await view.evaluate("document.title")  // "\"Notes\"", as JSON
/// ```
///
/// What the page may fetch is the page's business: give generated HTML a
/// Content-Security-Policy. Navigations (a clicked link, a form, a redirect) go through
/// ``navigationPolicy``.
@MainActor
public final class WebView: Widget {
    public override class var gType: GType { webkit_web_view_get_type() }

    /// The view's scripts and the messages they send (the wrapper the view was made with, which
    /// knows its script world).
    public private(set) var content: UserContentManager

    private var webViewPointer: UnsafeMutablePointer<WebKitWebView> { pointer(as: WebKitWebView.self) }
    private var connections = SignalConnections()

    /// Decides each navigation the page asks for. Without one, every navigation is allowed.
    public var navigationPolicy: (@MainActor (NavigationRequest) -> NavigationDecision)?

    /// Called when a load has finished (the page, its images and style laid out).
    public var loadFinished: (@MainActor () -> Void)?

    /// A new view for generated pages, running its scripts in `content`'s world.
    public convenience init(content: UserContentManager) {
        JavaScriptCoreSignal.choose()
        let session = webkit_network_session_new_ephemeral()
        defer { g_object_unref(UnsafeMutableRawPointer(session)) }
        self.init(owning: UnsafeMutableRawPointer(quire_web_view_new(content.managerPointer, session)))
        self.content = content
        let settings = WebSettings(retaining: UnsafeMutableRawPointer(webkit_web_view_get_settings(webViewPointer)))
        settings.runsPageScripts = false
        settings.allowsDeveloperTools = false
        settings.storesPagesInMemory = false
        // Drawn in software: composited (WebKitGTK 2.50, Xvfb), a view hidden while a frame was
        // on its way and shown again drew nothing more (no animation frame either) until its
        // size changed. A generated text page gains nothing from the GPU.
        settings.usesHardwareAcceleration = false
        connectSignals()
    }

    public required init(owning pointer: UnsafeMutableRawPointer) {
        content = UserContentManager(
            retaining: UnsafeMutableRawPointer(webkit_web_view_get_user_content_manager(
                pointer.assumingMemoryBound(to: WebKitWebView.self))))
        super.init(owning: pointer)
    }

    public required init(retaining pointer: UnsafeMutableRawPointer) {
        content = UserContentManager(
            retaining: UnsafeMutableRawPointer(webkit_web_view_get_user_content_manager(
                pointer.assumingMemoryBound(to: WebKitWebView.self))))
        super.init(retaining: pointer)
    }

    private func connectSignals() {
        connect(Signal<(UnsafeMutableRawPointer?, Int32) -> Bool>("decide-policy")) { [weak self] decision, type in
            guard let self, let decision else { return false }
            return self.decide(decision, type: WebKitPolicyDecisionType(UInt32(bitPattern: type)))
        }.store(in: connections)
        connect(Signal<(Int32) -> Void>("load-changed")) { [weak self] event in
            guard WebKitLoadEvent(UInt32(bitPattern: event)) == WEBKIT_LOAD_FINISHED else { return }
            self?.loadFinished?()
        }.store(in: connections)
    }

    /// Navigation actions go to ``navigationPolicy``; responses and new windows keep WebKit's
    /// answer (a generated page opens no windows: its scripts do not run).
    private func decide(_ decision: UnsafeMutableRawPointer, type: WebKitPolicyDecisionType) -> Bool {
        guard type == WEBKIT_POLICY_DECISION_TYPE_NAVIGATION_ACTION || type == WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION,
              let navigationPolicy
        else { return false }
        let navigation = OpaquePointer(decision)
        let action = webkit_navigation_policy_decision_get_navigation_action(navigation)
        let uri = webkit_navigation_action_get_request(action).flatMap { webkit_uri_request_get_uri($0) }.map { String(cString: $0) } ?? ""
        let request = NavigationRequest(
            uri: uri, isUserGesture: webkit_navigation_action_is_user_gesture(action) != 0,
            isLinkClick: webkit_navigation_action_get_navigation_type(action) == WEBKIT_NAVIGATION_TYPE_LINK_CLICKED,
            opensNewWindow: type == WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION)
        let policyDecision = decision.assumingMemoryBound(to: WebKitPolicyDecision.self)
        switch navigationPolicy(request) {
        case .allow: webkit_policy_decision_use(policyDecision)
        case .deny: webkit_policy_decision_ignore(policyDecision)
        }
        return true
    }

    /// Shows `html`, with relative links resolved against `baseURI` (`about:blank` without one).
    public func loadHTML(_ html: String, baseURI: String? = nil) {
        webkit_web_view_load_html(webViewPointer, html, baseURI)
    }

    /// Runs `script` in the content manager's world and returns its completion value as JSON
    /// (`"\"text\""`, `"3"`, `"null"`; `undefined`, as a statement leaves, as an empty string).
    /// Throws the script's exception or WebKit's error.
    @discardableResult
    public func evaluate(_ script: String) async throws(GLibError) -> String {
        let result: Result<String, GLibError> = await withCheckedContinuation { continuation in
            let box = Unmanaged.passRetained(EvaluationBox(continuation)).toOpaque()
            let done: GAsyncReadyCallback = { source, result, data in
                let box = Unmanaged<EvaluationBox>.fromOpaque(data!).takeRetainedValue()
                var error: UnsafeMutablePointer<GError>?
                let value = webkit_web_view_evaluate_javascript_finish(
                    UnsafeMutableRawPointer(source)?.assumingMemoryBound(to: WebKitWebView.self), result, &error)
                if let error {
                    // A script whose value is `undefined` (a statement) completes without one.
                    let noValue = error.pointee.domain == webkit_javascript_error_quark()
                        && error.pointee.code == Int32(WEBKIT_JAVASCRIPT_ERROR_INVALID_RESULT.rawValue)
                    if noValue {
                        g_error_free(error)
                        box.continuation.resume(returning: .success(""))
                    } else {
                        box.continuation.resume(returning: .failure(GLibError(consuming: error, operation: "running a script in the web view")))
                    }
                    return
                }
                defer { if let value { g_object_unref(UnsafeMutableRawPointer(value)) } }
                let json = value.flatMap { jsc_value_to_json($0, 0) }
                defer { g_free(json) }
                box.continuation.resume(returning: .success(json.map { String(cString: $0) } ?? ""))
            }
            webkit_web_view_evaluate_javascript(webViewPointer, script, -1, content.world, nil, nil, done, box)
        }
        return try result.get()
    }

    /// The colour behind the page until it paints its own, as red, green, blue and alpha from 0
    /// to 1: the window's background, so that a dark window does not flash white.
    public func setBackground(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        var color = GdkRGBA(red: Float(red), green: Float(green), blue: Float(blue), alpha: Float(alpha))
        webkit_web_view_set_background_color(webViewPointer, &color)
    }

    /// Whether a load is in progress.
    public var isLoading: Bool { webkit_web_view_is_loading(webViewPointer) != 0 }
}

/// What a page asked to navigate to.
public struct NavigationRequest: Sendable, Hashable {
    /// The address asked for.
    public var uri: String
    /// Whether a person's click or key started it (not a script or a redirect).
    public var isUserGesture: Bool
    /// Whether it is a followed link.
    public var isLinkClick: Bool
    /// Whether it asks for a new window (`target="_blank"`).
    public var opensNewWindow: Bool

    /// A request, as WebKit reports one.
    public init(uri: String, isUserGesture: Bool, isLinkClick: Bool, opensNewWindow: Bool) {
        self.uri = uri
        self.isUserGesture = isUserGesture
        self.isLinkClick = isLinkClick
        self.opensNewWindow = opensNewWindow
    }
}

/// What a view does with a ``NavigationRequest``.
public enum NavigationDecision: Sendable {
    /// Go there, in this view.
    case allow
    /// Stay on the page.
    case deny
}

/// Carries an evaluation's continuation through GIO's callback.
private final class EvaluationBox {
    let continuation: CheckedContinuation<Result<String, GLibError>, Never>
    init(_ continuation: CheckedContinuation<Result<String, GLibError>, Never>) { self.continuation = continuation }
}
