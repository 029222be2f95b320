package main

import "github.com/urfave/cli/v2"

func convertCommand() *cli.Command {
	return notYet("convert", "convert other formats to the canonical trace or jobs.csv", 2)
}
