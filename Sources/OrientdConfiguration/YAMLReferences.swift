// libyaml, as Yams builds it: its event stream is the only place anchors and aliases can be
// seen before Yams composes (and so expands) them. Yams keeps its events private.
import CYaml

/// Finds YAML anchors (`&name`) and aliases (`*name`) by walking libyaml's events, which never
/// expand anything: linear in the text, however the references nest. Quoted strings, comments
/// and block scalars holding '&' or '*' are text to the parser and are not reported.
enum YAMLReferences {
    struct Reference: Equatable {
        /// 1-based, as Yams counts lines.
        let line: Int
        let reason: String
    }

    /// Every anchor and alias, in order. A syntax error ends the walk quietly: the composer
    /// reports it afterwards with its own line and words.
    static func find(in text: String) -> [Reference] {
        var bytes = Array(text.utf8)
        if bytes.isEmpty { return [] }
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return [] }
        defer { yaml_parser_delete(&parser) }
        var references: [Reference] = []
        bytes.withUnsafeMutableBufferPointer { buffer in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var event = yaml_event_t()
            while yaml_parser_parse(&parser, &event) == 1 {
                defer { yaml_event_delete(&event) }
                let line = Int(event.start_mark.line) + 1
                switch event.type {
                case YAML_ALIAS_EVENT:
                    references.append(Reference(line: line, reason: alias(name(event.data.alias.anchor))))
                case YAML_SCALAR_EVENT:
                    if let anchor = event.data.scalar.anchor { references.append(Reference(line: line, reason: self.anchor(name(anchor)))) }
                case YAML_SEQUENCE_START_EVENT:
                    if let anchor = event.data.sequence_start.anchor { references.append(Reference(line: line, reason: self.anchor(name(anchor)))) }
                case YAML_MAPPING_START_EVENT:
                    if let anchor = event.data.mapping_start.anchor { references.append(Reference(line: line, reason: self.anchor(name(anchor)))) }
                case YAML_STREAM_END_EVENT:
                    return
                default:
                    break
                }
            }
        }
        return references
    }

    private static func alias(_ name: String) -> String {
        "'*\(name)' is a YAML alias; orientd's config takes no anchors or aliases: write the value out"
    }

    private static func anchor(_ name: String) -> String {
        "'&\(name)' is a YAML anchor; orientd's config takes no anchors or aliases: write the value out"
    }

    /// An anchor's name, shortened: it is shown in a log line.
    private static func name(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String {
        guard let pointer else { return "" }
        let name = String(cString: pointer)
        return name.count > 40 ? String(name.prefix(40)) + "…" : name
    }
}
