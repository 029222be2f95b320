package main

import "github.com/urfave/cli/v2"

func checkCommand() *cli.Command {
	return notYet("check", "check a planned worker count before launch", 4)
}
