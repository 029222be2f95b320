package main

import "github.com/urfave/cli/v2"

func validateCommand() *cli.Command {
	return notYet("validate", "run the validation protocol on every dataset", 4)
}
