/// A tag whose name no context of the stack declares (it would render as nothing), or a partial
/// tag naming no template.
public struct MustacheUnknownName: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        /// A variable or section name no level of the stack declares.
        case key
        /// A partial that names no template.
        case partial
    }

    public let kind: Kind
    /// The name as the tag spells it (`rawValueAccessor.name`, or a partial's name).
    public let name: String
    /// The template holding the tag.
    public let template: String
    public let location: MustacheLocation
    /// The templates from the one rendered to the one holding the tag, through partials.
    public let templates: [String]
}

extension MustacheLibrary {
    /// Every tag reachable from template `name` (through its partials, whatever the data) that
    /// names a key no shape of `stack` declares where the tag is, in template order; the last
    /// shape of `stack` is the top of the stack. Checks the template, renders nothing: a key
    /// that is declared but null, false or empty at render time is not unknown.
    public func unknownNames(in name: String, stack: [MustacheShape]) throws(MustacheError) -> [MustacheUnknownName] {
        guard let template = try cache.template(name, indentation: "") else {
            throw MustacheError(message: "no template named '\(name)'", line: 1)
        }
        var checker = ShapeChecker(cache: cache)
        try checker.check(template.nodes, stack: stack.map(ShapeChecker.Frame.shape), templates: [name])
        return checker.unknown
    }
}

private struct ShapeChecker {
    /// A level of the stack while checking: a declared shape, or what an unknown section pushed
    /// (which resolves every name, so one unknown name is reported once, not for every tag inside).
    enum Frame: Hashable {
        case shape(MustacheShape)
        case anything
    }

    /// Where lookup of a name ends.
    enum Resolution {
        case found(Frame)
        case unknown
    }

    let cache: PartialCache
    var unknown: [MustacheUnknownName] = []
    private var reported: Set<[String]> = []
    /// The stacks each partial was checked with: a recursive partial is checked once per stack.
    private var partialStacks: [String: Set<[Frame]>] = [:]

    /// A guard only: stacks hold each frame once, and frames come from a finite shape.
    static let maximumDepth = 256

    init(cache: PartialCache) {
        self.cache = cache
    }

    /// `stack` with `frame` on top. A lower copy of the frame is removed: the copy on top answers
    /// every lookup first, so the stack resolves every name as before, and a partial recurring
    /// inside sections over the same data meets the same stack again and is not checked again.
    static func pushing(_ frame: Frame, onto stack: [Frame]) -> [Frame] {
        stack.filter { $0 != frame } + [frame]
    }

    func resolve(_ name: String, in stack: [Frame]) -> Resolution {
        guard let top = stack.last else { return .unknown }
        if name == "." { return .found(top) }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var found: Frame?
        for frame in stack.reversed() {
            switch frame {
            case .anything: found = .anything
            case .shape(let shape): found = shape.members?[parts[0]].map(Frame.shape)
            }
            if found != nil { break }
        }
        guard var current = found else { return .unknown }
        for part in parts.dropFirst() {
            switch current {
            case .anything: return .found(.anything)
            case .shape(let shape):
                guard let member = shape.members?[part] else { return .unknown }
                current = .shape(member)
            }
        }
        return .found(current)
    }

    mutating func report(_ kind: MustacheUnknownName.Kind, _ name: String, at location: MustacheLocation, templates: [String]) {
        let template = templates.last ?? ""
        guard reported.insert([template, String(location.line), String(location.column)]).inserted else { return }
        unknown.append(MustacheUnknownName(kind: kind, name: name, template: template, location: location, templates: templates))
    }

    mutating func check(_ nodes: [MustacheTemplate.Node], stack: [Frame], templates: [String]) throws(MustacheError) {
        guard stack.count < Self.maximumDepth else { return }
        for node in nodes {
            switch node {
            case .text:
                continue
            case .variable(let name, _, let location):
                if case .unknown = resolve(name, in: stack) { report(.key, name, at: location, templates: templates) }
            case .section(let name, let children, let inverted, let location):
                switch resolve(name, in: stack) {
                case .unknown:
                    report(.key, name, at: location, templates: templates)
                    try check(children, stack: inverted ? stack : Self.pushing(.anything, onto: stack), templates: templates)
                case .found(let frame):
                    guard !inverted else {
                        try check(children, stack: stack, templates: templates)
                        continue
                    }
                    switch frame {
                    case .anything: try check(children, stack: Self.pushing(.anything, onto: stack), templates: templates)
                    case .shape(let shape):
                        try check(children, stack: Self.pushing(.shape(shape.pushed), onto: stack), templates: templates)
                    }
                }
            case .partial(let name, _, let location):
                guard let partial = try cache.template(name, indentation: "") else {
                    report(.partial, name, at: location, templates: templates)
                    continue
                }
                guard partialStacks[name, default: []].insert(stack).inserted else { continue }
                try check(partial.nodes, stack: stack, templates: templates + [name])
            }
        }
    }
}
