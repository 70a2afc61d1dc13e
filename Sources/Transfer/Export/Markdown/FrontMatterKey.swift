/// The keys of the YAML front matter in Quire's Markdown files, as exported and as read back.
enum FrontMatterKey {
    static let id = "id"
    static let title = "title"
    static let folder = "folder"
    static let tags = "tags"
    static let status = "status"
    static let favorite = "favorite"
    static let created = "created"
    static let updated = "updated"
    static let serverRevision = "server_revision"
    /// The article's language as BCP 47 (`en-US`), the key static site generators read.
    static let language = "lang"
}
