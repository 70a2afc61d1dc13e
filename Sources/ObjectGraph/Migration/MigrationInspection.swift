/// Read access to a store being migrated, for a custom stage's checks: the rows as the stage's
/// destination schema describes them.
public struct MigrationInspection {
    let connection: SQLiteConnection
    /// The schema the rows follow now.
    public let schema: Schema

    /// The number of rows of an entity.
    public func count(of entity: String) throws -> Int {
        Int(try connection.scalar("SELECT count(*) FROM \(SQL.quote(entity))")?.integerValue ?? 0)
    }

    /// Calls `body` with each row's key and the values of `attributes`, in key order.
    public func forEachRow(
        of entity: String, attributes: [String], _ body: (Int64, [PrimitiveValue]) throws -> Void
    ) throws {
        guard let description = schema.entity(named: entity) else { throw ObjectGraphError.unknownEntity(entity) }
        let types = try attributes.map { name -> AttributeType in
            guard let attribute = description.attribute(named: name), !attribute.isTransient else {
                throw ObjectGraphError.unknownKey(entity: entity, key: name)
            }
            return attribute.type
        }
        let columns = attributes.map { ", " + SQL.quote($0) }.joined()
        let statement = try connection.statement("SELECT _pk\(columns) FROM \(SQL.quote(entity)) ORDER BY _pk")
        defer { statement.reset() }
        while try statement.step() {
            try body(statement.int64(0), types.enumerated().map { statement.value(Int32($0.offset + 1), as: $0.element) })
        }
    }
}
