# Exercise 3 - look up a word
# Use https://dictionary-lookup.p.rapidapi.com/words/{word}/definitions
# Write a function define(word) that prints the first definition.
# Bonus: also print the synonyms!


def define(word):
    pass
