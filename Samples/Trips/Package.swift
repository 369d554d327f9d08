// swift-tools-version: 6.0
import PackageDescription

// The Trips sample: a library whose model, Trips.modeld, is compiled during the build by the
// modelgen plugin; trips-info loads the compiled model from the library's bundle, trips-demo
// works with a store through the generated classes, trips-getting-started is the code of
// ModelRuntime's getting-started article.
let package = Package(
    name: "Trips",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [
        .package(name: "modelgen", path: "../..")
    ],
    targets: [
        .target(
            name: "Trips",
            dependencies: [.product(name: "ModelRuntime", package: "modelgen")],
            plugins: [.plugin(name: "ModelgenPlugin", package: "modelgen")]
        ),
        .executableTarget(
            name: "trips-info",
            dependencies: ["Trips", .product(name: "ModelRuntime", package: "modelgen")]
        ),
        .executableTarget(
            name: "trips-demo",
            dependencies: ["Trips", .product(name: "ModelRuntime", package: "modelgen")]
        ),
        // The code of ModelRuntime's getting-started article, run by CI so that it stays true.
        .executableTarget(
            name: "trips-getting-started",
            dependencies: ["Trips", .product(name: "ModelRuntime", package: "modelgen")]
        ),
    ]
)
