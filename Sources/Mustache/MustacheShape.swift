/// The declared shape of a context: which keys each level offers and what kind of value each
/// holds. A key a shape declares may still be null, false or empty when rendered ("declared but
/// absent"); a key no shape declares is unknown, which `MustacheLibrary.unknownNames` reports.
public indirect enum MustacheShape: Hashable, Sendable {
    /// Text or a number: interpolated, or a section over it shows once when it is not empty.
    case value
    /// A flag: a section or an inverted section.
    case bool
    /// A list: a section repeats once per item, with the item on top of the stack.
    case list(MustacheShape)
    /// An object: its members can be looked up, and a section over it pushes it.
    case object([String: MustacheShape])
    /// A value of the wrapped shape, or null.
    case optional(MustacheShape)

    /// The shape of a `Decodable` type whose decoding asks for every key it has (as synthesized
    /// conformances do): structs are objects, arrays are lists, `Bool` is a flag, optionals are
    /// optional and every other single value is a value. Throws for a type that contains itself.
    public init<T: Decodable>(of type: T.Type) throws {
        let recorder = ShapeRecorder()
        _ = try T(from: ShapeDecoder(recorder: recorder, depth: 0))
        self = recorder.shape
    }

    /// The shape without an optional wrapper.
    public var unwrapped: MustacheShape {
        if case .optional(let wrapped) = self { return wrapped.unwrapped }
        return self
    }

    /// The keys of an object (optional or not); nil for every other shape.
    public var members: [String: MustacheShape]? {
        if case .object(let members) = unwrapped { return members }
        return nil
    }

    /// What a section over a value of this shape pushes on the stack: a list's item, or the
    /// value itself.
    public var pushed: MustacheShape {
        if case .list(let item) = unwrapped { return item.unwrapped }
        return unwrapped
    }

    /// Every key declared at any level, nested ones included.
    public var allKeys: Set<String> {
        switch self {
        case .value, .bool: []
        case .list(let item), .optional(let item): item.allKeys
        case .object(let members): members.reduce(into: Set(members.keys)) { $0.formUnion($1.value.allKeys) }
        }
    }
}
