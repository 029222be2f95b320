package main

import "github.com/urfave/cli/v2"

func reportCommand() *cli.Command {
	return notYet("report", "write figures and an HTML report", 7)
}
