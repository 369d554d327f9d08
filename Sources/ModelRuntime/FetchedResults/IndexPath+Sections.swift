#if !canImport(CoreData) && !canImport(UIKit) && !canImport(AppKit)
import ModelQuery

/// The section and row (or item) of an index path, as UIKit and AppKit add them on Apple
/// platforms: the first index is the section, the second the row. Linux Foundation has neither.
extension IndexPath {
    public init(item: Int, section: Int) { self.init(indexes: [section, item]) }
    public init(row: Int, section: Int) { self.init(indexes: [section, row]) }

    public var section: Int {
        get { self[0] }
        set { self[0] = newValue }
    }

    public var item: Int {
        get { self[1] }
        set { self[1] = newValue }
    }

    public var row: Int {
        get { self[1] }
        set { self[1] = newValue }
    }
}
#endif
