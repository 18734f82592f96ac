import ReceiptParser

/// `receipts rules`: print the parser's rules, to copy and extend.
enum RulesCommand {
    static let command = Command.printing(
        "rules",
        summary: "Print the parser's built-in rules (JSON): a starting point for a --rules file.",
        discussion: "A --rules file has the same shape; its lists are added to the built-in ones and its weights override them.") {
        ParserRules.builtInJSON
    }
}
