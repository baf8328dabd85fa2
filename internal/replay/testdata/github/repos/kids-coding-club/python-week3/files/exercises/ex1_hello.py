# Exercise 1 - variables and print
name = input("What is your name? ")
age = int(input("How old are you? "))
print("Hello", name + "!")
print("In ten years you will be", age + 10)
