from clickwright.app.cli import main

main()
