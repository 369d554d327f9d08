/// The help of a `<model>` argument, the same for every command that reads a model.
enum ModelArgument {
    static let help = "A .model.yaml file or .modeld folder, or an Xcode .xcdatamodeld or .xcdatamodel."
}
