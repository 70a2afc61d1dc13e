import CYAML

/// Reads a front matter block's YAML with libyaml's event parser into ``FrontMatter`` entries.
///
/// The events are read in one loop, never recursively and never into a document tree, so hostile
/// YAML costs time and memory in proportion to its length: aliases are not expanded (an alias is a
/// value of its own, so an alias "bomb" stays as small as it is written), and nesting deeper than
/// ``nestingLimit`` is an error rather than a deep stack. What libyaml refuses (malformed YAML,
/// control characters) is an error with libyaml's reason and the line it names.
enum FrontMatterYAML {
    /// The deepest nesting of sequences and mappings read. Front matter written by tools nests two
    /// or three levels; a deeper block is refused rather than walked.
    static let nestingLimit = 64

    /// The top-level mapping of `yaml` as entries, lines counted from `firstLine`.
    static func entries(of yaml: String, firstLine: Int) throws(FrontMatterError) -> [String: FrontMatter.Entry] {
        var events = try YAMLEventReader(yaml, firstLine: firstLine)
        guard case .streamStart = try events.next() else { throw events.unexpected("the start of the YAML") }
        switch try events.next() {
        case .streamEnd: return [:]  // Blank lines and comments only.
        case .documentStart: break
        default: throw events.unexpected("a YAML document")
        }
        var entries: [String: FrontMatter.Entry] = [:]
        switch try events.next() {
        case .mappingStart:
            while true {
                let key = try events.next()
                if case .mappingEnd = key { break }
                // A key that is not a scalar (`? [a, b]`) is no key the importer knows: skipped.
                if key.opensCollection { try events.skipCollection() }
                let value = try readValue(try events.next(), from: &events)
                if case .scalar(let name, _, let line, _) = key {
                    entries[name] = FrontMatter.Entry(value: value, line: line)
                }
            }
        case .scalar(let text, .plain, _, _) where text.isEmpty:
            break  // An empty document.
        default:
            throw FrontMatterError(line: events.line, reason: "expected 'key: value' lines")
        }
        guard case .documentEnd = try events.next(), case .streamEnd = try events.next() else {
            throw events.unexpected("the end of the front matter")
        }
        return entries
    }

    /// The value that `first` starts, its later events read from `events`.
    private static func readValue(_ first: YAMLEvent, from events: inout YAMLEventReader) throws(FrontMatterError) -> FrontMatter.Value {
        switch first {
        case .scalar(let text, let style, let line, let endLine):
            return scalarValue(text, style: style, spansLines: line != endLine)
        case .alias:
            return .unsupported("an alias")
        case .mappingStart(let isFlow):
            try events.skipCollection()
            return .unsupported(isFlow ? "a flow mapping" : "a nested mapping")
        case .sequenceStart:
            var items: [String] = []
            var unsupported: String?
            while true {
                let item = try events.next()
                switch item {
                case .sequenceEnd:
                    return unsupported.map(FrontMatter.Value.unsupported) ?? .sequence(items)
                case .scalar(let text, let style, let line, let endLine):
                    switch scalarValue(text, style: style, spansLines: line != endLine) {
                    case .unsupported(let shape): unsupported = unsupported ?? shape
                    case .scalar(let text, _): items.append(text)
                    case .null, .sequence: items.append("")  // A null item (`[a, , b]`, `- `) is empty.
                    }
                case .alias:
                    unsupported = unsupported ?? "an alias"
                case .sequenceStart, .mappingStart:
                    try events.skipCollection()
                    unsupported = unsupported ?? "a nested sequence"
                default:
                    throw events.unexpected("an item of a sequence")
                }
            }
        default:
            throw events.unexpected("a value")
        }
    }

    /// A scalar as the importer reads it: plain `null`, `~` or nothing is null; a block scalar or
    /// one written over several lines is outside the shape Quire reads.
    private static func scalarValue(_ text: String, style: YAMLEvent.ScalarStyle, spansLines: Bool) -> FrontMatter.Value {
        switch style {
        case .block:
            return .unsupported("a block scalar")
        case .plain where ["", "~", "null", "Null", "NULL"].contains(text):
            return .null
        case _ where spansLines:
            return .unsupported("a value over several lines")
        case .plain:
            return .scalar(text, quoted: false)
        case .quoted:
            return .scalar(text, quoted: true)
        }
    }
}

/// One libyaml event, copied out of libyaml's memory.
enum YAMLEvent {
    /// How a scalar was written.
    enum ScalarStyle {
        case plain, quoted, block
    }

    case streamStart, streamEnd, documentStart, documentEnd
    /// A scalar's text and style, and the lines it starts and ends on.
    case scalar(String, ScalarStyle, line: Int, endLine: Int)
    case alias
    case sequenceStart, sequenceEnd
    case mappingStart(isFlow: Bool)
    case mappingEnd

    /// Whether the event opens a sequence or mapping that later events close.
    var opensCollection: Bool {
        switch self {
        case .sequenceStart, .mappingStart: return true
        default: return false
        }
    }
}

/// libyaml's parser over one string, read event by event.
struct YAMLEventReader: ~Copyable {
    /// The parser, on the heap: libyaml keeps a pointer to it while reading a string.
    private let parser: UnsafeMutablePointer<yaml_parser_t>
    /// The UTF-8 input, which libyaml reads in place.
    private let input: UnsafeMutableBufferPointer<UInt8>
    private let firstLine: Int
    /// The open sequences and mappings.
    private var depth = 0
    /// The line of the last event read.
    private(set) var line: Int

    init(_ yaml: String, firstLine: Int) throws(FrontMatterError) {
        // Nothing is kept in `self` before the parser exists: a throw after that would run deinit.
        let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
        guard yaml_parser_initialize(parser) != 0 else {
            parser.deallocate()
            throw FrontMatterError(line: firstLine, reason: "not enough memory to read it")
        }
        // One byte at least, so that empty YAML still has an address to give libyaml.
        let input = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(1, yaml.utf8.count))
        let written = input.initialize(fromContentsOf: yaml.utf8)
        yaml_parser_set_input_string(parser, input.baseAddress, written)
        self.parser = parser
        self.input = input
        self.firstLine = firstLine
        line = firstLine
    }

    deinit {
        yaml_parser_delete(parser)
        parser.deallocate()
        input.deallocate()
    }

    /// The next event; libyaml's error, with its line, when the YAML is malformed.
    mutating func next() throws(FrontMatterError) -> YAMLEvent {
        var event = yaml_event_t()
        guard yaml_parser_parse(parser, &event) != 0 else { throw parseError() }
        defer { yaml_event_delete(&event) }
        line = firstLine + Int(event.start_mark.line)
        switch event.type {
        case YAML_STREAM_START_EVENT: return .streamStart
        case YAML_STREAM_END_EVENT: return .streamEnd
        case YAML_DOCUMENT_START_EVENT: return .documentStart
        case YAML_DOCUMENT_END_EVENT: return .documentEnd
        case YAML_ALIAS_EVENT: return .alias
        case YAML_SCALAR_EVENT:
            let scalar = event.data.scalar
            let text = String(decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
            let style: YAMLEvent.ScalarStyle
            switch scalar.style {
            case YAML_SINGLE_QUOTED_SCALAR_STYLE, YAML_DOUBLE_QUOTED_SCALAR_STYLE: style = .quoted
            case YAML_LITERAL_SCALAR_STYLE, YAML_FOLDED_SCALAR_STYLE: style = .block
            default: style = .plain
            }
            return .scalar(text, style, line: line, endLine: firstLine + Int(event.end_mark.line))
        case YAML_SEQUENCE_START_EVENT:
            try enter()
            return .sequenceStart
        case YAML_MAPPING_START_EVENT:
            try enter()
            return .mappingStart(isFlow: event.data.mapping_start.style == YAML_FLOW_MAPPING_STYLE)
        case YAML_SEQUENCE_END_EVENT:
            depth -= 1
            return .sequenceEnd
        case YAML_MAPPING_END_EVENT:
            depth -= 1
            return .mappingEnd
        default:
            throw unexpected("a known YAML event")
        }
    }

    /// Reads up to the end of the sequence or mapping whose start was the last event.
    mutating func skipCollection() throws(FrontMatterError) {
        let outer = depth - 1
        while depth > outer { _ = try next() }
    }

    /// An error for an event that does not belong where it is, at its line.
    func unexpected(_ expected: String) -> FrontMatterError {
        FrontMatterError(line: line, reason: "expected \(expected)")
    }

    private mutating func enter() throws(FrontMatterError) {
        depth += 1
        guard depth <= FrontMatterYAML.nestingLimit else {
            throw FrontMatterError(line: line, reason: "nested more than \(FrontMatterYAML.nestingLimit) levels deep")
        }
    }

    /// libyaml's reason, in its words ("while scanning a quoted scalar, found unexpected end of stream").
    private func parseError() -> FrontMatterError {
        let state = parser.pointee
        guard state.error != YAML_MEMORY_ERROR, let problem = state.problem else {
            return FrontMatterError(line: line, reason: "not enough memory to read it")
        }
        var reason = String(cString: problem)
        if let context = state.context { reason = "\(String(cString: context)), \(reason)" }
        return FrontMatterError(line: firstLine + Int(state.problem_mark.line), reason: reason)
    }
}
