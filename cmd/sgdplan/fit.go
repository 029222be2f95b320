package main

import "github.com/urfave/cli/v2"

func fitCommand() *cli.Command {
	return notYet("fit", "fit a throughput and efficiency model to traces", 4)
}
