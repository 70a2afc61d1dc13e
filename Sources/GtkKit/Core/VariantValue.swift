import CGtk

/// A Swift type that travels as a `GVariant`: an action's parameter or state, a menu item's or a
/// toast's action target.
///
/// ```swift
/// let sort = Action(name: "sort", state: "updated") { order in list.sort(by: order) }
/// menu.append("By Title", action: "win.sort", target: "title")
/// ```
public protocol VariantValue {
    /// The `GVariant` type string, such as `s` or `b`.
    static var variantType: String { get }
    /// A new floating `GVariant` holding the value.
    func makeVariant() -> OpaquePointer
    /// The value a `GVariant` of ``variantType`` holds.
    static func load(from variant: OpaquePointer) -> Self
}

extension String: VariantValue {
    public static var variantType: String { "s" }
    public func makeVariant() -> OpaquePointer { g_variant_new_string(self) }
    public static func load(from variant: OpaquePointer) -> String { String(cString: g_variant_get_string(variant, nil)) }
}

extension Bool: VariantValue {
    public static var variantType: String { "b" }
    public func makeVariant() -> OpaquePointer { g_variant_new_boolean(self ? 1 : 0) }
    public static func load(from variant: OpaquePointer) -> Bool { g_variant_get_boolean(variant) != 0 }
}

extension Int32: VariantValue {
    public static var variantType: String { "i" }
    public func makeVariant() -> OpaquePointer { g_variant_new_int32(self) }
    public static func load(from variant: OpaquePointer) -> Int32 { g_variant_get_int32(variant) }
}

extension UInt32: VariantValue {
    public static var variantType: String { "u" }
    public func makeVariant() -> OpaquePointer { g_variant_new_uint32(self) }
    public static func load(from variant: OpaquePointer) -> UInt32 { g_variant_get_uint32(variant) }
}

extension VariantValue {
    /// The value `variant` holds, or nil when it holds another type (or is nil).
    static func value(in variant: OpaquePointer?) -> Self? {
        guard let variant, String(cString: g_variant_get_type_string(variant)) == variantType else { return nil }
        return load(from: variant)
    }

    /// The `GVariantType` of the values, for `g_simple_action_new`; freed by the caller.
    static func withVariantType<Result>(_ body: (OpaquePointer) -> Result) -> Result {
        let type = g_variant_type_new(variantType)!
        defer { g_variant_type_free(type) }
        return body(type)
    }
}
