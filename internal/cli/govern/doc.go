// Package govern holds the 'intent' commands: declaring, selecting,
// releasing and closing the intents that govern what a session may work
// on (packages intent and governance do the work).
package govern
