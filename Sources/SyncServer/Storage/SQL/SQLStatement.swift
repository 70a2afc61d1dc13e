/// A statement and its parameters, for `SQLConnection.executeBatch`.
struct SQLStatement {
    var sql: String
    var parameters: [SQLValue]

    init(_ sql: String, _ parameters: [SQLValue]) {
        self.sql = sql
        self.parameters = parameters
    }
}
