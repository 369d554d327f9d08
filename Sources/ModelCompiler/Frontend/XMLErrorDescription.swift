/// Words for the error codes of an XML parser. Both FoundationXML and Apple's `XMLParser` report
/// libxml2's `xmlParserErrors` numbers (Apple's `XMLParser.ErrorCode` documentation sends readers
/// to `<libxml/xmlerror.h>` for the codes it does not list), so one table serves both.
enum XMLErrorDescription {
    /// What is wrong, phrased to follow "the model contents are not valid XML: ".
    static func words(for code: Int) -> String {
        switch code {
        case 1: "the XML parser failed"
        case 2: "the XML parser ran out of memory"
        case 3, 4: "it is empty"
        case 5: "it ends before all its elements are closed, or continues after its root element"
        case 6, 7, 8: "a character reference (&#…;) is malformed"
        case 9: "it contains a character XML does not allow"
        case 10...13: "a character reference (&#…;) is out of place"
        case 14...21: "an entity reference (&…;) is out of place"
        case 22, 24: "an entity reference has no name after '&'"
        case 23, 25: "an entity reference is missing its ';'"
        case 26, 27: "it refers to an entity that is not declared (write '&amp;' for a literal '&')"
        case 28...30: "it refers to an entity that cannot be used here"
        case 31, 32, 79, 81, 101: "its character encoding is unknown or its bytes do not match it"
        case 33, 34, 43, 44: "a quoted value is not closed"
        case 35: "a namespace declaration is malformed"
        case 36, 37: "an entity value is not closed"
        case 38: "an attribute value contains '<' (write '&lt;')"
        case 39, 40, 41, 84: "an attribute has no quoted value"
        case 42: "an element has the same attribute twice"
        case 45, 80: "a comment is not closed, or contains '--'"
        case 46, 47: "a processing instruction (<?…?>) is malformed"
        case 48...55, 58...61, 83, 88, 94, 95: "its document type declaration (DTD) is malformed"
        case 56, 57, 96, 97, 108, 109: "its XML declaration (<?xml …?>) is malformed"
        case 62: "it contains ']]>' outside a CDATA section"
        case 63: "a CDATA section is not closed"
        case 64: "it uses a name reserved by XML"
        case 65, 66: "a space or separator is missing"
        case 67, 68: "a name is missing or starts with a character names cannot start with"
        case 72: "a '<' is missing"
        case 73: "a tag is missing its '>'"
        case 74: "an end tag is missing its '</'"
        case 75: "an attribute is missing its '='"
        case 76: "an end tag does not match its start tag"
        case 77: "an element is not closed"
        case 85, 86: "it has content after its root element, or elements that are not balanced"
        case 89: "its entities refer to each other in a loop or expand too much"
        case 90: "an entity does not contain whole elements"
        case 91, 92: "it contains a malformed URI"
        case 110: "a name is too long"
        case 200...299: "it uses an XML namespace wrongly (such as an undeclared prefix)"
        default: "it is not well-formed XML (parser error \(code))"
        }
    }
}
