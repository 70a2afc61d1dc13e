import Foundation
import Glibc

/// One address or a network of them, as `trusted-proxies` lists them: `127.0.0.1`, `::1`,
/// `10.0.0.0/8`, `fd00::/8`.
public struct AddressRange: Hashable, Sendable, CustomStringConvertible {
    private let network: [UInt8]
    private let prefixLength: Int

    /// Parses `ADDRESS` or `ADDRESS/PREFIX`.
    public init(parsing text: String) throws {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let bytes = Self.bytes(String(parts[0])) else { throw ServerError.invalidAddressRange(text) }
        let length = parts.count == 2 ? Int(parts[1]) : bytes.count * 8
        guard let length, (0...bytes.count * 8).contains(length) else { throw ServerError.invalidAddressRange(text) }
        network = bytes
        prefixLength = length
    }

    /// Whether `address` (as text) lies in the range. An IPv4 address never lies in an IPv6 range.
    public func contains(_ address: String) -> Bool {
        guard let bytes = Self.bytes(address), bytes.count == network.count else { return false }
        return Self.prefix(bytes, prefixLength) == Self.prefix(network, prefixLength)
    }

    /// `ADDRESS/PREFIX`, or the address alone for a single one.
    public var description: String {
        let text = Self.text(network)
        return prefixLength == network.count * 8 ? text : "\(text)/\(prefixLength)"
    }

    /// What rate limits count per client: an IPv4 address, or an IPv6 address's /64, the
    /// smallest network one customer is usually given (so that one cannot hop addresses).
    static func clientKey(_ address: String) -> String {
        guard let bytes = bytes(address), bytes.count == 16 else { return address }
        return text(Array(bytes.prefix(8)) + Array(repeating: 0, count: 8)) + "/64"
    }

    /// The address's 4 or 16 bytes; an IPv4-mapped IPv6 address gives its 4.
    static func bytes(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes.prefix(10).allSatisfy({ $0 == 0 }) && bytes[10] == 0xff && bytes[11] == 0xff { return Array(bytes.suffix(4)) }
        return bytes
    }

    private static func text(_ bytes: [UInt8]) -> String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        _ = bytes.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &buffer, socklen_t(buffer.count)) }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func prefix(_ bytes: [UInt8], _ length: Int) -> [UInt8] {
        bytes.enumerated().map { index, byte in
            let bits = min(8, max(0, length - index * 8))
            return bits == 0 ? 0 : byte & UInt8(truncatingIfNeeded: 0xff << (8 - bits))
        }
    }
}

/// Who sent a request: the peer, or behind a trusted proxy the client it names.
enum ClientAddress {
    /// The peer's address, unless the peer is a trusted proxy: then the right-most address in
    /// `X-Forwarded-For` that is not itself a trusted proxy (each proxy appends the address it saw,
    /// so entries left of that one are the client's own claims and cannot be trusted).
    static func resolve(peer: String, forwardedFor: String?, trusted: [AddressRange]) -> String {
        guard let forwardedFor, trusted.contains(where: { $0.contains(peer) }) else { return peer }
        let hops = forwardedFor.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        var client = peer
        for hop in hops.reversed() {
            guard AddressRange.bytes(hop) != nil else { break }
            client = hop
            if !trusted.contains(where: { $0.contains(hop) }) { break }
        }
        return client
    }
}
