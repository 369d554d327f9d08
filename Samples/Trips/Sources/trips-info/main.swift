import Foundation
import ModelRuntime
import Trips

// Prints the versions of the compiled Trips model, as found in the Trips module's bundle, next to
// the checksums the generated code was built with.
do {
    let model = try TripsStore.compiledModel()
    print("\(model.name).momd: current version '\(model.currentVersionName)'")
    for version in model.versions {
        let marker = version.name == model.currentVersionName ? " (current)" : ""
        print("  \(version.name)\(marker): checksum \(version.checksum ?? "not recorded"), \(version.entityHashes.count) entities")
    }
    let generated = TripsModel.Version.allCases.map { "\($0.rawValue)=\($0.checksum)" }
    let compiled = model.versions.map { "\($0.name)=\($0.checksum ?? "")" }
    print(generated == compiled ? "generated constants match the compiled bundle" : "generated constants DIFFER from the compiled bundle")
    if generated != compiled { exit(1) }
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
