import ReceiptsCLI

CLI.main()
