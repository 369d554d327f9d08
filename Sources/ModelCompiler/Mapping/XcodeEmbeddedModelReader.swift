import ModelSchema

/// Reads the copy of a model version Xcode's mapping editor embeds in `xcmapping.xml`
/// (`sourcemodeldata`, `destinationmodeldata`: a keyed archive of Xcode's own model classes,
/// `XDPMModel` with `XDPMEntity`, `XDPMAttribute` and `XDPMRelationship` objects) as a
/// ``ModelOutline``: entity names, parents and own property names. Only names are read; nil when
/// the archive is not one of these.
enum XcodeEmbeddedModelReader {
    static func outline(_ bytes: [UInt8]) -> ModelOutline? {
        guard let archive = try? BinaryPropertyList.decode(bytes), case .array(let objects)? = archive["$objects"] else { return nil }
        func entry(_ value: PropertyList?) -> PropertyList? {
            guard case .uid(let uid)? = value, uid != 0, uid < objects.count else { return nil }
            return objects[Int(uid)]
        }
        func className(_ object: PropertyList) -> String? {
            entry(object["$class"])?["$classname"]?.stringValue
        }
        func name(_ object: PropertyList?) -> String? {
            entry(object?["_name"])?.stringValue
        }
        func members(_ value: PropertyList?) -> [PropertyList] {
            guard case .array(let items)? = entry(value)?["NS.objects"] else { return [] }
            return items.compactMap { entry($0) }
        }
        var entities: [String: ModelOutline.EntityOutline] = [:]
        for object in objects where className(object) == "XDPMEntity" {
            guard let entityName = name(object) else { return nil }
            var outline = ModelOutline.EntityOutline(parentName: nil, attributeNames: [], relationshipNames: [])
            for property in members(object["XDBucketForOwnedAttributesstorage"]) {
                guard let propertyName = name(property) else { continue }
                switch className(property) {
                case "XDPMAttribute": outline.attributeNames.insert(propertyName)
                case "XDPMRelationship": outline.relationshipNames.insert(propertyName)
                default: break
                }
            }
            outline.parentName = members(object["XDBucketForGeneralizationsstorage"]).compactMap { name(entry($0["_general"])) }.first
            entities[entityName] = outline
        }
        return entities.isEmpty ? nil : ModelOutline(entities: entities)
    }
}
