import CGtk
import GtkShim

/// The C shape a handler type's trampoline expects, checked against `g_signal_query` when
/// connecting: a trampoline of the wrong shape would read garbage arguments.
struct SignalSignature: Equatable, CustomStringConvertible {
    /// How a value crosses the C calling convention.
    enum Kind: String {
        case none, boolean, int, uint, double, string, flags
        /// Any pointer: object, interface, boxed, variant, param spec or raw pointer.
        case pointer
    }

    var returns: Kind
    var parameters: [Kind]

    init(returns: Kind = .none, _ parameters: Kind...) {
        self.returns = returns
        self.parameters = parameters
    }

    /// The signature of a GObject signal, or nil if it has a type no trampoline handles.
    init?(query: GSignalQuery) {
        guard let returns = Self.kind(of: query.return_type) else { return nil }
        var parameters: [Kind] = []
        for index in 0..<Int(query.n_params) {
            guard let kind = Self.kind(of: query.param_types[index]) else { return nil }
            parameters.append(kind)
        }
        self.returns = returns
        self.parameters = parameters
    }

    private static func kind(of type: GType) -> Kind? {
        let fundamental = g_type_fundamental(gtkshim_signal_param_type(type))
        switch fundamental {
        case gtkshim_type_none(): return Kind.none
        case gtkshim_type_boolean(): return .boolean
        // Enums travel as C ints.
        case gtkshim_type_int(), gtkshim_type_enum(): return .int
        case gtkshim_type_uint(): return .uint
        case gtkshim_type_double(): return .double
        case gtkshim_type_string(): return .string
        case gtkshim_type_flags(): return .flags
        case gtkshim_type_object(), gtkshim_type_interface(), gtkshim_type_boxed(), gtkshim_type_variant(),
            gtkshim_type_param(), gtkshim_type_pointer():
            return .pointer
        default: return nil
        }
    }

    var description: String {
        "(\(parameters.map(\.rawValue).joined(separator: ", "))) -> \(returns.rawValue)"
    }
}
