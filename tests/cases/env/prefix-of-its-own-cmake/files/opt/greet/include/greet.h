const char* greet(void);
