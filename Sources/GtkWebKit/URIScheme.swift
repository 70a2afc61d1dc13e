import CGtk
import CWebKit
import GtkKit

/// What a ``WebView``'s own URI scheme answers for one address (``WebView/serve(scheme:_:)``).
public struct SchemeResponse: Sendable {
    /// The bytes.
    public var bytes: [UInt8]
    /// Their media type (`image/png`), which decides how the page uses them.
    public var mediaType: String

    /// A response of `bytes` as `mediaType`.
    public init(bytes: [UInt8], mediaType: String) {
        self.bytes = bytes
        self.mediaType = mediaType
    }
}

extension WebView {
    /// Answers the page's requests for `scheme:` addresses (an `<img src="scheme:…">`) with
    /// `respond`, which gets the whole address and returns the bytes, or nil to refuse (the page
    /// then sees a failed load). Nothing for the scheme ever goes to the network: WebKit asks only
    /// `respond`. The scheme is registered on the view's web context the first time; each view
    /// has its own answer (a view without one refuses every address). Navigations to the scheme
    /// still go through ``navigationPolicy``.
    ///
    /// ```swift
    /// view.serve(scheme: "attachment") { uri in try? await store.image(at: uri) }
    /// ```
    public func serve(scheme: String, _ respond: @escaping @MainActor (String) async -> SchemeResponse?) {
        schemeServers[ObjectIdentifier(self)] = WeakServer(view: self, scheme: scheme, respond: respond)
        let context = webkit_web_view_get_context(pointer(as: WebKitWebView.self))
        let key = "\(UInt(bitPattern: context)):\(scheme)"
        guard registeredSchemes.insert(key).inserted else { return }
        webkit_web_context_register_uri_scheme(context, scheme, { request, _ in
            guard let request else { return }
            MainActor.assumeIsolated { WebView.answer(request) }
        }, nil, nil)
    }

    /// Finds the view that asked and lets its server answer, or refuses.
    private static func answer(_ request: OpaquePointer) {
        let uri = String(cString: webkit_uri_scheme_request_get_uri(request))
        let scheme = String(cString: webkit_uri_scheme_request_get_scheme(request))
        let asking = webkit_uri_scheme_request_get_web_view(request).map { UnsafeMutableRawPointer($0) }
        schemeServers = schemeServers.filter { $0.value.view != nil }
        guard let server = schemeServers.values.first(where: { $0.view.map { UnsafeMutableRawPointer($0.objectPointer) } == asking && $0.scheme == scheme }) else {
            refuse(request, uri: uri)
            return
        }
        // The request waits for the answer; WebKit lets it go once it is finished.
        g_object_ref(UnsafeMutableRawPointer(request))
        let respond = server.respond
        Task { @MainActor in
            defer { g_object_unref(UnsafeMutableRawPointer(request)) }
            guard let response = await respond(uri) else {
                refuse(request, uri: uri)
                return
            }
            let bytes = response.bytes.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
            let stream = g_memory_input_stream_new_from_bytes(bytes)
            g_bytes_unref(bytes)
            webkit_uri_scheme_request_finish(request, stream, gint64(response.bytes.count), response.mediaType)
            g_object_unref(UnsafeMutableRawPointer(stream))
        }
    }

    private static func refuse(_ request: OpaquePointer, uri: String) {
        let error = g_error_new_literal(g_io_error_quark(), gint(G_IO_ERROR_NOT_FOUND.rawValue), "nothing at \(uri)")
        webkit_uri_scheme_request_finish_error(request, error)
        g_error_free(error)
    }
}

/// A view's answer to its scheme, holding the view weakly (the registry outlives views).
@MainActor
private struct WeakServer {
    weak var view: WebView?
    let scheme: String
    let respond: @MainActor (String) async -> SchemeResponse?
}

/// Each view's server, by the view.
@MainActor private var schemeServers: [ObjectIdentifier: WeakServer] = [:]
/// The schemes registered, by web context and name (WebKit takes each once per context).
@MainActor private var registeredSchemes: Set<String> = []
