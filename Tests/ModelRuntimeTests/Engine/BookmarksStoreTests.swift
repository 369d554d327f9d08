#if !canImport(CoreData)
import ModelRuntime
import ModelStore
import Testing

/// The ordered relationships of DuckDuckGo's bookmark stores, which Apple's Core Data wrote:
/// a folder's `children` (ordered, through `parent`'s `Z_FOK_PARENT`) and its `favorites`
/// (ordered; through `favoriteFolder`'s `Z_FOK_FAVORITEFOLDER` in versions 1–3, and in versions 4
/// and 5 a many-to-many of the entity with itself, `Z_1FAVORITES (Z_1FAVORITEFOLDERS,
/// Z_1FAVORITES, Z_FOK_1FAVORITES)`): read in the order the file holds, and written so the file
/// holds the new order in Core Data's columns.
struct BookmarksStoreTests {
    static let stores = ["1", "2", "3", "4", "5"].map {
        FixtureStoreTests.Case(model: "duckduckgo-bsk/BookmarksModel.xcdatamodeld", store: "duckduckgo-bsk/stores/Bookmarks_V\($0).sqlite")
    }

    /// The favorites folder's favorites as the file orders them (keys).
    static func fileFavorites(_ url: URL, folder: Int64) throws -> [Int64] {
        let raw = try StoreConnection(path: url.path, mode: .readOnly)
        let joined = try raw.rows("SELECT name FROM sqlite_master WHERE name = 'Z_1FAVORITES'").isEmpty == false
        let sql =
            joined
            ? "SELECT Z_1FAVORITES FROM Z_1FAVORITES WHERE Z_1FAVORITEFOLDERS = ? ORDER BY Z_FOK_1FAVORITES"
            : "SELECT Z_PK FROM ZBOOKMARKENTITY WHERE ZFAVORITEFOLDER = ? ORDER BY Z_FOK_FAVORITEFOLDER"
        return try raw.rows(sql, [.integer(folder)]).compactMap { $0[0].integerValue }
    }

    static func fileChildren(_ url: URL, folder: Int64) throws -> [Int64] {
        let raw = try StoreConnection(path: url.path, mode: .readOnly)
        return try raw.rows("SELECT Z_PK FROM ZBOOKMARKENTITY WHERE ZPARENT = ? ORDER BY Z_FOK_PARENT", [.integer(folder)]).compactMap {
            $0[0].integerValue
        }
    }

    static func folder(_ uuid: String, in context: NSManagedObjectContext) throws -> NSManagedObject {
        let request = NSFetchRequest<NSManagedObject>(entityName: "BookmarkEntity")
        request.predicate = NSPredicate(format: "uuid == %@", uuid)
        return try #require(try context.fetch(request).first)
    }

    static func keys(_ value: Any?) -> [Int64] {
        ((value as? NSOrderedSet)?.array ?? []).compactMap { ($0 as? NSManagedObject).map(AppleStoreRoundTripTests.primaryKey) }
    }

    @Test(arguments: stores)
    func orderedRelationshipsReadInTheFilesOrder(_ fixture: FixtureStoreTests.Case) throws {
        let opened = try AppleStoreRoundTripTests.open(fixture)
        let (_, context) = try EngineTestModel.stack(model: opened.model, url: opened.url)
        try context.performAndWait { () throws in
            let favoritesRoot = try Self.folder("favorites_root", in: context)
            let bookmarksRoot = try Self.folder("bookmarks_root", in: context)
            let favorites = Self.keys(favoritesRoot.value(forKey: "favorites"))
            #expect(favorites.count == 5)
            #expect(favorites == (try Self.fileFavorites(opened.url, folder: AppleStoreRoundTripTests.primaryKey(of: favoritesRoot))))
            let children = Self.keys(bookmarksRoot.value(forKey: "children"))
            #expect(children.count == 5)
            #expect(children == (try Self.fileChildren(opened.url, folder: AppleStoreRoundTripTests.primaryKey(of: bookmarksRoot))))
        }
    }

    /// A new favorite at the front and the children reversed: the file holds the new orders with
    /// Core Data's order values, the new favorite's row in the folder's and the favorite's columns.
    @Test(arguments: stores)
    func reorderedRelationshipsAreWrittenInCoreDatasColumns(_ fixture: FixtureStoreTests.Case) throws {
        let opened = try AppleStoreRoundTripTests.open(fixture)
        let (coordinator, context) = try EngineTestModel.stack(model: opened.model, url: opened.url)
        var expectedFavorites: [Int64] = []
        var expectedChildren: [Int64] = []
        var roots: (favorites: Int64, bookmarks: Int64) = (0, 0)
        try context.performAndWait { () throws in
            let favoritesRoot = try Self.folder("favorites_root", in: context)
            let bookmarksRoot = try Self.folder("bookmarks_root", in: context)
            let bookmark = NSEntityDescription.insertNewObject(forEntityName: "BookmarkEntity", into: context)
            bookmark.setValue("new-bookmark", forKey: "uuid")
            bookmark.setValue("New", forKey: "title")
            bookmark.setValue(false, forKey: "isFolder")
            // Required in versions 1 and 2.
            if bookmark.entity.attributesByName["isFavorite"] != nil { bookmark.setValue(true, forKey: "isFavorite") }
            bookmark.setValue(bookmarksRoot, forKey: "parent")
            favoritesRoot.mutableOrderedSetValue(forKey: "favorites").insert(bookmark, at: 0)
            let children = (bookmarksRoot.value(forKey: "children") as? NSOrderedSet)?.array ?? []
            bookmarksRoot.setValue(NSOrderedSet(array: children.reversed()), forKey: "children")
            try context.save()
            expectedFavorites = Self.keys(favoritesRoot.value(forKey: "favorites"))
            expectedChildren = Self.keys(bookmarksRoot.value(forKey: "children"))
            roots = (AppleStoreRoundTripTests.primaryKey(of: favoritesRoot), AppleStoreRoundTripTests.primaryKey(of: bookmarksRoot))
        }
        for store in coordinator.persistentStores { try coordinator.remove(store) }
        #expect(expectedFavorites.count == 6 && expectedChildren.count == 6)
        #expect(try Self.fileFavorites(opened.url, folder: roots.favorites) == expectedFavorites)
        #expect(try Self.fileChildren(opened.url, folder: roots.bookmarks) == expectedChildren)
        let raw = try StoreConnection(path: opened.url.path, mode: .readOnly)
        let orders = try raw.rows(
            "SELECT Z_FOK_PARENT FROM ZBOOKMARKENTITY WHERE ZPARENT = ? ORDER BY Z_FOK_PARENT", [.integer(roots.bookmarks)])
        #expect(orders.map { $0[0].integerValue ?? 0 } == [2048, 3072, 4096, 5120, 6144, 7168])
    }
}
#endif
