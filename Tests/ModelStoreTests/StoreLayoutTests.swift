import ModelSchema
import ModelStore
import Testing

/// Layout conventions beyond what the fixture stores show, on small models.
struct StoreLayoutTests {
    static func attribute(_ name: String, _ type: AttributeType, transient: Bool = false) -> Attribute {
        Attribute(name: name, type: type, isOptional: true, isTransient: transient)
    }

    static func columns(_ layout: StoreLayout, _ table: String) -> [String] {
        layout.tables.first { $0.name == table }?.columns.map { "\($0.name) \($0.type.rawValue)" } ?? []
    }

    @Test func entitiesAreNumberedRootsByNameThenSubEntitiesDepthFirst() {
        let version = ModelVersion(
            name: "V",
            entities: [
                Entity(name: "Zoo"), Entity(name: "Cat", parentName: "Animal"), Entity(name: "Animal"),
                Entity(name: "Lion", parentName: "Cat"), Entity(name: "Bird", parentName: "Animal"),
            ])
        let layout = StoreLayout(version)
        #expect(layout.entities.map(\.name) == ["Animal", "Bird", "Cat", "Lion", "Zoo"])
        #expect(layout.entities.map(\.superEntityNumber) == [0, 1, 1, 3, 0])
        #expect(layout.entity(named: "Cat")?.entityNumbers == 3...4)
        #expect(layout.entity(named: "Animal")?.entityNumbers == 1...4)
        #expect(layout.tables.map(\.name) == ["ZANIMAL", "ZZOO"])
        #expect(layout.entity(named: "Lion")?.tableIndex == 0)
    }

    /// Reals and dates share one group in name order (reported from an app's store); integers
    /// first with attributes before to-one keys; then text, then blobs.
    @Test func columnsAreGroupedByStorageClassInCoreDatasOrder() {
        let version = ModelVersion(
            name: "V",
            entities: [
                Entity(
                    name: "Goal",
                    attributes: [
                        Self.attribute("weight", .double), Self.attribute("createdAt", .date), Self.attribute("arms", .float),
                        Self.attribute("note", .string), Self.attribute("id", .uuid), Self.attribute("reps", .integer16),
                        Self.attribute("done", .boolean), Self.attribute("scratch", .string, transient: true),
                    ],
                    relationships: [Relationship(name: "athlete", destinationName: "Athlete", inverseName: "goals")]),
                Entity(
                    name: "Athlete",
                    relationships: [Relationship(name: "goals", destinationName: "Goal", isToMany: true, inverseName: "athlete")]),
            ])
        let layout = StoreLayout(version)
        #expect(
            Self.columns(layout, "ZGOAL") == [
                "Z_PK INTEGER", "Z_ENT INTEGER", "Z_OPT INTEGER", "ZDONE INTEGER", "ZREPS INTEGER", "ZATHLETE INTEGER",
                "ZARMS FLOAT", "ZCREATEDAT TIMESTAMP", "ZWEIGHT FLOAT", "ZNOTE VARCHAR", "ZID BLOB",
            ])
        #expect(Self.columns(layout, "ZATHLETE") == ["Z_PK INTEGER", "Z_ENT INTEGER", "Z_OPT INTEGER"])
        #expect(layout.indexes.map(\.name) == ["ZGOAL_ZATHLETE_INDEX"])
        let goal = try! #require(layout.entity(named: "Goal"))
        #expect(goal.properties.map(\.name) == ["arms", "createdAt", "done", "id", "note", "reps", "scratch", "weight", "athlete"])
        #expect(goal.properties[6].storage == .none)
        #expect(layout.entity(named: "Athlete")?.properties.first?.storage == .inverseOfToOne)
    }

    /// Every stored property's slot points at columns whose role names that property.
    @Test func slotsAndColumnIndexesAgree() {
        let version = ModelVersion(
            name: "V",
            entities: [
                Entity(
                    name: "Item", attributes: [Self.attribute("name", .string)],
                    relationships: [Relationship(name: "list", destinationName: "List", inverseName: "items")]),
                Entity(name: "Task", parentName: "Item", attributes: [Self.attribute("due", .date)]),
                Entity(
                    name: "List",
                    relationships: [
                        Relationship(name: "items", destinationName: "Item", isToMany: true, isOrdered: true, inverseName: "list")
                    ]),
            ])
        let layout = StoreLayout(version)
        let task = try! #require(layout.entity(named: "Task"))
        let table = layout.table(of: task)
        for property in task.properties {
            #expect(task.slot(of: property.name) == property.slot)
            switch property.storage {
            case .column(let index):
                guard case .attribute(_, let name, _) = table.columns[index].role else {
                    Issue.record("\(property.name)")
                    continue
                }
                #expect(name == property.name)
            case .toOne(let key, let entity, let order):
                #expect(table.columns[key].name == "ZLIST")
                #expect(entity == nil)
                #expect(order.map { table.columns[$0].name } == "Z_FOK_LIST")
            default: Issue.record("unexpected storage of \(property.name)")
            }
        }
        #expect(
            Self.columns(layout, "ZITEM") == [
                "Z_PK INTEGER", "Z_ENT INTEGER", "Z_OPT INTEGER", "ZLIST INTEGER", "Z_FOK_LIST INTEGER", "ZDUE TIMESTAMP", "ZNAME VARCHAR",
            ])
        #expect(layout.indexes.map(\.name) == ["ZITEM_ZLIST_INDEX", "ZITEM_Z_ENT_INDEX"])
    }

    @Test func sameNamedColumnsOfSubEntitiesGetNumberedAndKeysToInheritanceTreesCarryTheEntity() {
        let version = ModelVersion(
            name: "V",
            entities: [
                Entity(name: "Media"), Entity(name: "Book", parentName: "Media", attributes: [Self.attribute("title", .string)]),
                Entity(name: "Film", parentName: "Media", attributes: [Self.attribute("title", .string)]),
                Entity(
                    name: "Review", relationships: [Relationship(name: "media", destinationName: "Media", inverseName: nil, isOneWay: true)]
                ),
            ])
        let layout = StoreLayout(version)
        #expect(Self.columns(layout, "ZMEDIA") == ["Z_PK INTEGER", "Z_ENT INTEGER", "Z_OPT INTEGER", "ZTITLE VARCHAR", "ZTITLE1 VARCHAR"])
        #expect(
            Self.columns(layout, "ZREVIEW") == ["Z_PK INTEGER", "Z_ENT INTEGER", "Z_OPT INTEGER", "ZMEDIA INTEGER", "Z1_MEDIA INTEGER"])
    }

    /// The join-table example from Core Data's SQL logs: Recipe.categories ↔ RecipeCategory.recipes.
    @Test func manyToManyRelationshipsGetAJoinTableNamedAfterTheFirstEntity() {
        let version = ModelVersion(
            name: "V",
            entities: [
                Entity(
                    name: "RecipeCategory",
                    relationships: [Relationship(name: "recipes", destinationName: "Recipe", isToMany: true, inverseName: "categories")]),
                Entity(
                    name: "Recipe",
                    relationships: [
                        Relationship(name: "categories", destinationName: "RecipeCategory", isToMany: true, inverseName: "recipes")
                    ]),
            ])
        let layout = StoreLayout(version)
        #expect(layout.joinTables.map(\.name) == ["Z_1CATEGORIES"])
        #expect(layout.joinTables.first?.first.column == "Z_1RECIPES")
        #expect(layout.joinTables.first?.second.column == "Z_2CATEGORIES")
        #expect(
            StoreSchema.statements(for: layout).filter { $0.contains("Z_1CATEGORIES") } == [
                "CREATE TABLE Z_1CATEGORIES ( Z_1RECIPES INTEGER, Z_2CATEGORIES INTEGER, PRIMARY KEY (Z_1RECIPES, Z_2CATEGORIES) )",
                "CREATE INDEX Z_1CATEGORIES_Z_2CATEGORIES_INDEX ON Z_1CATEGORIES (Z_2CATEGORIES, Z_1RECIPES)",
            ])
        #expect(layout.entity(named: "Recipe")?.properties.first?.storage == .joinTable(0))
        #expect(layout.entity(named: "RecipeCategory")?.properties.first?.storage == .joinTable(0))
    }

    @Test func compositeAttributesAreFlattenedOneColumnPerLeaf() {
        let version = ModelVersion(
            name: "V",
            entities: [
                Entity(name: "Stop", attributes: [Self.attribute("location", .composite("Location")), Self.attribute("name", .string)])
            ],
            composites: [
                CompositeType(name: "Location", attributes: [Self.attribute("latitude", .double), Self.attribute("longitude", .double)])
            ])
        let layout = StoreLayout(version)
        #expect(
            Self.columns(layout, "ZSTOP") == [
                "Z_PK INTEGER", "Z_ENT INTEGER", "Z_OPT INTEGER", "ZLATITUDE FLOAT", "ZLONGITUDE FLOAT", "ZNAME VARCHAR",
            ])
        #expect(layout.entity(named: "Stop")?.properties.first?.storage == .composite([3, 4]))
    }

    /// An attribute that is a fetch index's only element also gets its own index (as
    /// `Bookmarks_V4` has `Z_BookmarkEntity_isPendingDeletion` beside `…_byIsPendingDeletion`);
    /// per entity: attribute indexes, fetch indexes, uniqueness constraints (`SyncMetadata_V3`).
    @Test func uniquenessConstraintsAndFetchIndexesBecomeIndexes() {
        let version = ModelVersion(
            name: "V",
            entities: [
                Entity(
                    name: "Car", attributes: [Self.attribute("maker", .string), Self.attribute("plate", .string)],
                    uniquenessConstraints: [["plate"]],
                    fetchIndexes: [FetchIndex(name: "byMaker", elements: [.init(propertyName: "maker", isAscending: false)])])
            ])
        #expect(
            StoreSchema.statements(for: StoreLayout(version)).filter { $0.contains("INDEX") } == [
                "CREATE INDEX Z_Car_maker ON ZCAR (ZMAKER COLLATE BINARY ASC)",
                "CREATE INDEX Z_Car_byMaker ON ZCAR (ZMAKER COLLATE BINARY DESC)",
                "CREATE UNIQUE INDEX Z_Car_UNIQUE_plate ON ZCAR (ZPLATE COLLATE BINARY ASC)",
            ])
    }

    /// Roots are numbered in `caseInsensitiveCompare:` order (`SyncMetadata 3`:
    /// `SyncableSettingsMetadata` 1, `SyncFeatureEntity` 2), sub-entities too.
    @Test func entitiesAreNumberedIgnoringCase() {
        let version = ModelVersion(
            name: "V",
            entities: [
                Entity(name: "SyncFeatureEntity"), Entity(name: "SyncableSettingsMetadata"), Entity(name: "Base"),
                Entity(name: "BZ", parentName: "Base"), Entity(name: "Ba", parentName: "Base"),
            ])
        #expect(StoreLayout(version).entities.map(\.name) == ["Base", "Ba", "BZ", "SyncableSettingsMetadata", "SyncFeatureEntity"])
    }

    /// After the integer attributes and keys of every entity come all `Z_FOK_` columns of the
    /// table as one block (`Bookmarks_V1`: `ZFAVORITEFOLDER, ZPARENT, Z_FOK_FAVORITEFOLDER,
    /// Z_FOK_PARENT`); Transformable blobs before Binary ones.
    @Test func orderColumnsFollowEveryIntegerColumnAsOneBlock() {
        let version = ModelVersion(
            name: "V",
            entities: [
                Entity(
                    name: "Item",
                    attributes: [
                        Self.attribute("raw", .binaryData), Self.attribute("color", .transformable), Self.attribute("title", .string),
                        Self.attribute("count", .integer32),
                    ],
                    relationships: [
                        Relationship(name: "list", destinationName: "List", inverseName: "items"),
                        Relationship(name: "folder", destinationName: "List", inverseName: "children"),
                    ]),
                Entity(name: "Task", parentName: "Item", attributes: [Self.attribute("done", .boolean)]),
                Entity(
                    name: "List",
                    relationships: [
                        Relationship(name: "items", destinationName: "Item", isToMany: true, isOrdered: true, inverseName: "list"),
                        Relationship(name: "children", destinationName: "Item", isToMany: true, isOrdered: true, inverseName: "folder"),
                    ]),
            ])
        #expect(
            Self.columns(StoreLayout(version), "ZITEM") == [
                "Z_PK INTEGER", "Z_ENT INTEGER", "Z_OPT INTEGER", "ZCOUNT INTEGER", "ZFOLDER INTEGER", "ZLIST INTEGER", "ZDONE INTEGER",
                "Z_FOK_FOLDER INTEGER", "Z_FOK_LIST INTEGER", "ZTITLE VARCHAR", "ZCOLOR BLOB", "ZRAW BLOB",
            ])
    }

    /// Join columns are unique among all join tables: two `users` relationships pointing at one
    /// entity give `Z_3USERS` (the entity whose name sorts first) and `Z_3USERS1`.
    @Test func joinColumnsAreUniqueAcrossJoinTables() {
        let version = ModelVersion(
            name: "V",
            entities: [
                Entity(
                    name: "Group",
                    relationships: [Relationship(name: "users", destinationName: "User", isToMany: true, inverseName: "groups")]),
                Entity(
                    name: "Channel",
                    relationships: [Relationship(name: "users", destinationName: "User", isToMany: true, inverseName: "channels")]),
                Entity(
                    name: "User",
                    relationships: [
                        Relationship(name: "groups", destinationName: "Group", isToMany: true, inverseName: "users"),
                        Relationship(name: "channels", destinationName: "Channel", isToMany: true, inverseName: "users"),
                    ]),
            ])
        let tables = StoreLayout(version).joinTables
        #expect(tables.map(\.name) == ["Z_1USERS", "Z_2USERS"])
        #expect(tables.map { [$0.first.column, $0.second.column] } == [["Z_1CHANNELS", "Z_3USERS"], ["Z_2GROUPS", "Z_3USERS1"]])
    }

    /// A many-to-many relationship of an entity with itself (`Bookmarks_V4`: `favorites` ↔
    /// `favoriteFolders`, ordered `favorites`) gives `Z_1FAVORITES (Z_1FAVORITEFOLDERS,
    /// Z_1FAVORITES, Z_FOK_1FAVORITES)`.
    @Test func aSelfReferencingManyToManyIsNamedAsCoreDataNamesIt() {
        let version = ModelVersion(
            name: "V",
            entities: [
                Entity(
                    name: "BookmarkEntity",
                    relationships: [
                        Relationship(name: "favoriteFolders", destinationName: "BookmarkEntity", isToMany: true, inverseName: "favorites"),
                        Relationship(
                            name: "favorites", destinationName: "BookmarkEntity", isToMany: true, isOrdered: true,
                            inverseName: "favoriteFolders"),
                    ])
            ])
        #expect(
            StoreSchema.statements(for: StoreLayout(version)).filter { $0.contains("Z_1FAV") } == [
                "CREATE TABLE Z_1FAVORITES ( Z_1FAVORITEFOLDERS INTEGER, Z_1FAVORITES INTEGER, Z_FOK_1FAVORITES INTEGER, PRIMARY KEY (Z_1FAVORITEFOLDERS, Z_1FAVORITES) )",
                "CREATE INDEX Z_1FAVORITES_Z_1FAVORITES_INDEX ON Z_1FAVORITES (Z_1FAVORITES, Z_1FAVORITEFOLDERS)",
            ])
    }
}
