import ReceiptParser

/// `receipts rules`: print the parser's rules, to copy and extend.
enum RulesCommand {
    static let command = Command(
        name: "rules",
        summary: "Print the parser's built-in rules (JSON): a starting point for a --rules file.",
        discussion: "A --rules file has the same shape; its lists are added to the built-in ones and its weights override them.",
        arguments: Positionals<NoArgs>.none("rules takes no arguments"),
        run: { _, ctx in
            ctx.console.outRaw(ParserRules.builtInJSON)
            return .ok
        })
}
