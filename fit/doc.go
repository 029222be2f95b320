// Package fit regresses traces onto the models of package model: estimators,
// bounded nonlinear least squares, bootstrap uncertainty and model choice.
package fit
