package main

import "github.com/urfave/cli/v2"

func predictCommand() *cli.Command {
	return notYet("predict", "predict speed and time to target for any configuration", 4)
}
