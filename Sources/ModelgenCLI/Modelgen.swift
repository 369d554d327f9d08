public enum Modelgen { public static func main(arguments: [String]) -> Int32 { 0 } }
