/// The protocol's version within its `/v1` paths, as `GET /v1/health` answers it
/// (``HealthStatus/protocolVersion``): each version adds optional article fields that a server
/// from before refuses as unknown, so a client sends them only to a server that says it knows them.
///
///     let payload = content.payload.forProtocol(health.protocolVersion)
public enum ProtocolVersion {
    /// The version this build's server answers and its client speaks.
    public static let current = 3
    /// The first version whose servers store the article's `language`.
    public static let articleLanguage = 2
    /// The first version whose servers keep attachments' bytes (`/v1/blobs/{sha256}`) and refuse
    /// an article whose body refers to a blob the account lacks. A client syncs no attachment
    /// with an older server.
    public static let blobs = 3
}

extension ArticlePayload {
    /// The JSON keys of the content a server of `version` knows, in the order the protocol lists them.
    public static func fieldNames(forProtocol version: Int) -> [String] {
        version >= ProtocolVersion.articleLanguage ? fieldNames : fieldNames.filter { $0 != "language" }
    }

    /// The content as a server of `version` takes it: the fields it does not know left out.
    public func forProtocol(_ version: Int) -> ArticlePayload {
        var payload = self
        if version < ProtocolVersion.articleLanguage { payload.language = nil }
        return payload
    }
}
