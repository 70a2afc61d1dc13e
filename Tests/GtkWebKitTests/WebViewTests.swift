import Foundation
import GtkKit
import GtkTestSupport
import GtkWebKit
import XCTest

/// A real WebKitGTK web view under Xvfb: page scripts stay off while the app's own run, messages
/// come back, and navigations go through the policy. (That the preview's Content-Security-Policy
/// keeps images from loading is `ArticlePreviewTests`' business, against a loopback server.)
final class WebViewTests: GtkTestCase, @unchecked Sendable {
    /// A web view in a shown window, destroyed after the test.
    @MainActor
    private func makeView(messages: [String] = []) -> (WebView, Window) {
        let content = UserContentManager(world: "tests")
        let view = WebView(content: content)
        let window = Window()
        window.defaultSize = (400, 300)
        window.child = view
        window.present()
        addTeardownBlock { @MainActor in window.destroy() }
        return (view, window)
    }

    @MainActor
    private func load(_ html: String, in view: WebView) {
        var finished = false
        view.loadFinished = { finished = true }
        view.loadHTML(html)
        spinMainLoop { finished }
        view.loadFinished = nil
    }

    @MainActor
    private func evaluate(_ script: String, in view: WebView) throws -> String {
        var result: Result<String, GLibError>?
        Task { @MainActor in
            do throws(GLibError) { result = .success(try await view.evaluate(script)) } catch { result = .failure(error) }
        }
        spinMainLoop { result != nil }
        return try result!.get()
    }

    func testPageScriptsDoNotRunWhileTheAppsScriptsDo() throws {
        try MainActor.assumeIsolated {
            let (view, _) = makeView()
            var posted: [String] = []
            view.content.onMessage("seen") { posted.append($0) }
            view.content.addScript("document.documentElement.dataset.appScript = 'ran'")
            load("""
                <html><body><h1>Notes</h1>
                <script>document.body.dataset.page = 'script'</script>
                <img src="data:," onerror="document.body.dataset.page = 'handler'" onload="document.body.dataset.page = 'handler'">
                <a href="#" id="link" onclick="document.body.dataset.page = 'click'">x</a>
                </body></html>
                """, in: view)
            _ = try evaluate("document.getElementById('link').click()", in: view)
            XCTAssertEqual(try evaluate("document.body.dataset.page ?? 'none'", in: view), "\"none\"")
            XCTAssertEqual(try evaluate("document.documentElement.dataset.appScript", in: view), "\"ran\"")
            XCTAssertEqual(try evaluate("document.querySelector('h1').textContent", in: view), "\"Notes\"")
            _ = try evaluate("window.webkit.messageHandlers.seen.postMessage({line: 3})", in: view)
            spinMainLoop { !posted.isEmpty }
            XCTAssertEqual(posted, [#"{"line":3}"#])

            // The app's scripts share their world: what one defines, the next sees.
            view.content.addScript("var shared = 'in the world'")
            load("<html><body></body></html>", in: view)
            XCTAssertEqual(try evaluate("shared", in: view), "\"in the world\"")
        }
    }

    func testAScriptErrorIsThrown() throws {
        try MainActor.assumeIsolated {
            let (view, _) = makeView()
            load("<html><body></body></html>", in: view)
            XCTAssertThrowsError(try evaluate("no.such.thing", in: view))
        }
    }

    func testALinkClickGoesToThePolicyAndADeniedOneLeavesThePage() throws {
        try MainActor.assumeIsolated {
            let (view, _) = makeView()
            load(#"<html><body><p id="here">page</p><a id="out" href="https://example.org/away">away</a></body></html>"#, in: view)
            var requests: [NavigationRequest] = []
            view.navigationPolicy = { request in
                requests.append(request)
                return .deny
            }
            _ = try evaluate("document.getElementById('out').click()", in: view)
            spinMainLoop { !requests.isEmpty }
            XCTAssertEqual(requests.first?.uri, "https://example.org/away")
            XCTAssertEqual(requests.first?.isLinkClick, true)
            XCTAssertEqual(try evaluate("document.getElementById('here').textContent", in: view), "\"page\"")
        }
    }

    func testAViewsOwnSchemeIsAnsweredByItsServerAndRefusedWithoutOne() throws {
        try MainActor.assumeIsolated {
            let (view, _) = makeView()
            let (other, _) = makeView()
            // A 1×1 GIF.
            let gif: [UInt8] = Array(Data(base64Encoded: "R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==")!)
            var asked: [String] = []
            view.serve(scheme: "quire-test") { uri in
                asked.append(uri)
                return uri == "quire-test:dot" ? SchemeResponse(bytes: gif, mediaType: "image/gif") : nil
            }
            let page = #"<html><body><img src="quire-test:dot"><img src="quire-test:missing"></body></html>"#
            load(page, in: view)
            spinMainLoop { (try? evaluate("Array.from(document.images).every(i => i.complete)", in: view)) == "true" }
            XCTAssertEqual(try evaluate("Array.from(document.images).map(i => i.naturalWidth)", in: view), "[1,0]")
            XCTAssertEqual(Set(asked), ["quire-test:dot", "quire-test:missing"])

            // A view of the same context without a server of its own gets nothing.
            load(page, in: other)
            spinMainLoop { (try? evaluate("Array.from(document.images).every(i => i.complete)", in: other)) == "true" }
            XCTAssertEqual(try evaluate("Array.from(document.images).map(i => i.naturalWidth)", in: other), "[0,0]")
            XCTAssertEqual(asked.count, 2, "the first view's server was not asked for the other's page")
        }
    }
}
