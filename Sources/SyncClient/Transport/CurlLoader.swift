import CCurl
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// Loads one answer through libcurl itself, trusting the certificate authorities of one PEM file
/// (`CURLOPT_CAINFO`): for a self-hosted server whose certificate a CA of the writer's vouches for.
///
/// URLSession cannot do that on Linux: FoundationNetworking sets no CA on its libcurl handles
/// (its `URLSessionCertificateAuthorityInfoFile` variable is read on Android only), libcurl reads
/// no variable for it, and OpenSSL's `SSL_CERT_FILE` and `VerifyCAFile` are overridden by the CA
/// bundle Debian's libcurl is built with. So a transport given a CA file loads through this, with
/// the same limits as `AnswerLoader`: no redirects, a body limit, the timeout for the whole
/// request, cancellation with the calling task.
final class CurlLoader: Sendable {
    private let certificateAuthority: URL
    private let maximumBytes: Int
    private let timeout: TimeInterval

    /// libcurl's global setup, once, before any handle (it is not safe to race it).
    private static let globalSetup: Void = { _ = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

    init(certificateAuthority: URL, maximumBytes: Int, timeout: TimeInterval) {
        Self.globalSetup
        self.certificateAuthority = certificateAuthority
        self.maximumBytes = maximumBytes
        self.timeout = timeout
    }

    /// Runs `request` on a thread of its own (libcurl's easy interface blocks) and answers when
    /// it ends; cancelling the calling task aborts the transfer.
    func load(_ request: URLRequest) async -> Result<HTTPAnswer, AnswerLoader.Failure> {
        let transfer = Transfer(maximumBytes: maximumBytes)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let thread = Thread { [self] in continuation.resume(returning: perform(request, transfer)) }
                thread.stackSize = 1 << 20
                thread.start()
            }
        } onCancel: {
            transfer.cancel()
        }
    }

    private func perform(_ request: URLRequest, _ transfer: Transfer) -> Result<HTTPAnswer, AnswerLoader.Failure> {
        guard let handle = curl_easy_init(), let url = request.url?.absoluteString else {
            return .failure(.network(URLError(.unknown)))
        }
        defer { curl_easy_cleanup(handle) }
        var headers: UnsafeMutablePointer<curl_slist>?
        for (name, value) in request.allHTTPHeaderFields ?? [:] { headers = curl_slist_append(headers, "\(name): \(value)") }
        // libcurl would add `Expect: 100-continue` to larger bodies and wait for the server's go.
        headers = curl_slist_append(headers, "Expect:")
        defer { curl_slist_free_all(headers) }
        let body = request.httpBody ?? Data()
        let context = Unmanaged.passUnretained(transfer).toOpaque()
        let code: CURLcode = body.withUnsafeBytes { bytes in
            var setup = quire_curl_set_text(handle, CURLOPT_URL, url)
            for (option, value) in [(CURLOPT_NOSIGNAL, 1), (CURLOPT_FOLLOWLOCATION, 0), (CURLOPT_SSL_VERIFYPEER, 1),
                                    (CURLOPT_SSL_VERIFYHOST, 2), (CURLOPT_TIMEOUT_MS, Int(timeout * 1000)),
                                    (CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_1_1)] where setup == CURLE_OK {
                setup = quire_curl_set_long(handle, option, value)
            }
            if setup == CURLE_OK { setup = quire_curl_set_text(handle, CURLOPT_CAINFO, certificateAuthority.path) }
            if setup == CURLE_OK { setup = quire_curl_set_text(handle, CURLOPT_CUSTOMREQUEST, request.httpMethod ?? "GET") }
            if setup == CURLE_OK, request.httpMethod == "HEAD" { setup = quire_curl_set_long(handle, CURLOPT_NOBODY, 1) }
            if setup == CURLE_OK, !body.isEmpty { setup = quire_curl_set_body(handle, bytes.baseAddress, bytes.count) }
            if setup == CURLE_OK { setup = quire_curl_set_list(handle, CURLOPT_HTTPHEADER, headers) }
            if setup == CURLE_OK { setup = quire_curl_set_callbacks(handle, receiveBody, receiveHeader, progress, context) }
            guard setup == CURLE_OK else { return setup }
            return curl_easy_perform(handle)
        }
        return transfer.outcome(code, status: quire_curl_response_code(handle), sent: quire_curl_bytes_sent(handle) > 0)
    }
}

/// What one transfer received, filled by libcurl's callbacks on the transfer's thread and
/// cancelled from any thread.
private final class Transfer: @unchecked Sendable {
    let maximumBytes: Int
    /// Set by `cancel` from another thread; read by the progress callback.
    private let cancelled = Atomic<Bool>(false)
    var headers: [String: String] = [:]
    var body = Data()
    var isOverLimit = false

    init(maximumBytes: Int) { self.maximumBytes = maximumBytes }

    func cancel() { cancelled.store(true, ordering: .relaxed) }
    var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    /// The transfer's end as `AnswerLoader` reports one, URLSession's error codes included.
    func outcome(_ code: CURLcode, status: Int, sent: Bool) -> Result<HTTPAnswer, AnswerLoader.Failure> {
        if isOverLimit { return .failure(.tooLarge(limit: maximumBytes)) }
        switch code {
        case CURLE_OK:
            return status > 0 ? .success(HTTPAnswer(status: status, headers: headers, body: body)) : .failure(.noResponse)
        case CURLE_ABORTED_BY_CALLBACK:
            return .failure(.network(URLError(.cancelled)))
        case CURLE_OPERATION_TIMEDOUT:
            return .failure(.network(URLError(.timedOut)))
        case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST:
            return .failure(.network(URLError(code == CURLE_COULDNT_CONNECT ? .cannotConnectToHost : .cannotFindHost)))
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE:
            return .failure(.network(URLError(.serverCertificateUntrusted)))
        case CURLE_SSL_CONNECT_ERROR:
            return .failure(.network(URLError(.secureConnectionFailed)))
        default:
            // Cut after the request went out, or failed mid-answer: the outcome is unknown.
            return .failure(.network(URLError(sent ? .networkConnectionLost : .cannotConnectToHost)))
        }
    }
}

private let receiveBody: quire_curl_data_callback = { data, size, count, context in
    guard let data, let context else { return 0 }
    let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    guard transfer.body.count + length <= transfer.maximumBytes else {
        transfer.isOverLimit = true
        transfer.body = Data()
        return 0
    }
    data.withMemoryRebound(to: UInt8.self, capacity: length) { transfer.body.append($0, count: length) }
    return length
}

private let receiveHeader: quire_curl_data_callback = { data, size, count, context in
    guard let data, let context else { return 0 }
    let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    let line = data.withMemoryRebound(to: UInt8.self, capacity: length) {
        String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
    }
    if line.hasPrefix("HTTP/") {
        // A new status line (after a 100 Continue, say): the headers start again.
        transfer.headers = [:]
    } else if let colon = line.firstIndex(of: ":") {
        let name = line[..<colon].trimmingCharacters(in: .whitespaces)
        transfer.headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
    }
    return length
}

private let progress: quire_curl_progress_callback = { context, _, _, _, _ in
    guard let context else { return 1 }
    return Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue().isCancelled ? 1 : 0
}
