/// Why the server could not start.
public enum ServerError: Error, CustomStringConvertible {
    /// `--listen` is not `HOST:PORT` with an IP address.
    case invalidListenAddress(String)
    /// The socket could not be bound or listened on; `reason` is the system's message.
    case cannotListen(String)
    /// The libmicrohttpd found at run time is older than the one this code was checked with.
    case unsupportedLibrary(String)
    /// A trusted proxy is not `ADDRESS` or `ADDRESS/PREFIX`.
    case invalidAddressRange(String)
    /// The TLS certificate or key cannot be read or used.
    case tls(String)
    /// The log file cannot be opened; the text says which and why.
    case logFile(String)

    /// One line for the operator.
    public var description: String {
        switch self {
        case let .invalidListenAddress(text): return "'\(text)' is not HOST:PORT with an IPv4 or [IPv6] address"
        case let .cannotListen(reason): return "cannot listen: \(reason)"
        case let .unsupportedLibrary(reason): return reason
        case let .invalidAddressRange(text): return "'\(text)' is not an IP address or network (ADDRESS/PREFIX)"
        case let .tls(reason): return "TLS: \(reason)"
        case let .logFile(reason): return reason
        }
    }
}
