"""The one ordered gate every mail passes: a received mail handled end to end, its sender judged,
orders taken, commands answered, faults set aside, and what every seat hears of a match's course."""
